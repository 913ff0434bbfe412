// agent_key.mint: an administrator mints another key for an agent (returned once; only its hash is
// stored). The agent's other keys keep working until revoked.
import { z } from 'zod';
import type { Agent } from '../../store/types.ts';
import type { AgentKeyRecord } from '../../store/identity.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { expiresInDays } from '../fields.ts';
import { parse } from '../validate.ts';
import type { UseCase } from '../writes/use-case.ts';
import { findAgent } from './agent-records.ts';
import type { Clock } from './auth.ts';
import { mintKey } from './secrets.ts';
import { expiryFrom } from './user-keys.ts';

const contract = z.object({ agent: z.string(), expiresInDays: z.unknown().optional() });

type Loaded = { agent: Agent; days: number | undefined };

export function agentKeyMint(
  clock: Clock,
): UseCase<z.output<typeof contract>, Loaded, { keyRecord: AgentKeyRecord; key: string }> {
  return {
    name: 'agent_key.mint',
    contract,
    guard: ({ store, actor, community }) =>
      requireCommunityAdmin(store, actor, community, 'mint agent keys'),
    load: async ({ store, community }, input) => {
      const days = parse(expiresInDays.optional(), input.expiresInDays);
      return { agent: await findAgent(store, community, input.agent), days };
    },
    policy: async () => ({ mode: 'apply', reason: 'administrator' }),
    apply: async ({ tx, community }, _input, { agent, days }) => {
      const minted = mintKey('agent');
      const keyRecord = await tx.community(community.id).access.agents.createKey({
        agentId: agent.id,
        prefix: minted.prefix,
        keyHash: minted.hash,
        expiresAt: expiryFrom(clock(), days),
      });
      return { keyRecord, key: minted.key };
    },
    audit: (minted) => ({ targets: { key_id: minted.keyRecord.id } }),
  };
}
