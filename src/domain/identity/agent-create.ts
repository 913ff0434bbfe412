// agent.create: an administrator creates an agent of the community with its scopes (and trusted or
// not) and mints its first key, returned once (only its hash is stored). A name is the community's
// once. The person who creates it owns it (its reports and citations count with theirs).
import { z } from 'zod';
import type { AgentKeyRecord } from '../../store/identity.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { agentName, expiresInDays } from '../fields.ts';
import { translateStoreError } from '../validate.ts';
import type { UseCase } from '../writes/use-case.ts';
import { agentView, scopesSchema, type AgentView } from './agent-records.ts';
import type { Clock } from './auth.ts';
import { mintKey } from './secrets.ts';
import { ownerFor } from '../knowledge/owners.ts';
import { expiryFrom } from './user-keys.ts';

export const agentCreateContract = z.object({
  name: agentName,
  scopes: scopesSchema.default([]),
  trusted: z.boolean().default(false),
  expiresInDays: expiresInDays.optional(),
});

export type AgentCreated = { agent: AgentView; keyRecord: AgentKeyRecord; key: string };

export function agentCreate(
  clock: Clock,
): UseCase<z.output<typeof agentCreateContract>, void, AgentCreated> {
  return {
    name: 'agent.create',
    contract: agentCreateContract,
    guard: ({ store, actor, community }) =>
      requireCommunityAdmin(store, actor, community, 'create agents'),
    load: async () => undefined,
    policy: async () => ({ mode: 'apply', reason: 'administrator' }),
    apply: async ({ tx, community, actor }, input) => {
      const scope = tx.community(community.id);
      const minted = mintKey('agent');
      try {
        const agent = await scope.agents.create({ name: input.name });
        const grant = { scopes: input.scopes, trusted: input.trusted };
        await scope.access.agents.setGrant(agent.id, grant);
        const owner = ownerFor(actor);
        if (owner) await scope.knowledge.setAgentOwner(agent.id, owner);
        const keyRecord = await scope.access.agents.createKey({
          agentId: agent.id,
          prefix: minted.prefix,
          keyHash: minted.hash,
          expiresAt: expiryFrom(clock(), input.expiresInDays),
        });
        return { agent: agentView(agent, grant), keyRecord, key: minted.key };
      } catch (err) {
        translateStoreError(
          err,
          `An agent named "${input.name}" already exists in "${community.slug}". Choose another name, or mint a key for it with \`hamlet key mint\`.`,
          '',
        );
      }
    },
    audit: (created) => ({ targets: { agent_id: created.agent.id } }),
  };
}
