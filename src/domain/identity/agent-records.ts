// What the agent writes and reads share: the views of an agent and of its keys, the scopes an agent
// may be given, and finding an agent of a community by id or name (not_found saying where ids come
// from).
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Agent, Community } from '../../store/types.ts';
import type { AgentKeyRecord } from '../../store/identity.ts';
import { isUuid } from '../../store/ids.ts';
import { DomainError } from '../errors.ts';
import { SCOPES } from '../vocabulary.ts';
import type { KeyView } from './user-keys.ts';

export const scopesSchema = z
  .array(z.enum(SCOPES, { error: `each scope must be one of ${SCOPES.join(', ')}` }))
  .max(SCOPES.length);

export type AgentView = {
  id: string;
  communityId: string;
  name: string;
  scopes: string[];
  trusted: boolean;
  createdAt: string;
};
export type AgentKeyView = KeyView & { agentId: string };

export function agentKeyView(k: AgentKeyRecord): AgentKeyView {
  return {
    id: k.id,
    agentId: k.agentId,
    prefix: k.prefix,
    createdAt: k.createdAt,
    expiresAt: k.expiresAt,
    revokedAt: k.revokedAt,
    lastUsedAt: k.lastUsedAt,
  };
}

/** The agent's view with its grant (no grant yet: no scopes, not trusted). */
export function agentView(
  agent: Agent,
  grant: { scopes: string[]; trusted: boolean } = { scopes: [], trusted: false },
): AgentView {
  return {
    id: agent.id,
    communityId: agent.communityId,
    name: agent.name,
    scopes: grant.scopes,
    trusted: grant.trusted,
    createdAt: agent.createdAt,
  };
}

/** The community's agent by id or name. */
export async function findAgent(store: Store, community: Community, ref: string): Promise<Agent> {
  const scope = store.community(community.id);
  const agent = isUuid(ref) ? await scope.agents.getById(ref) : await scope.agents.getByName(ref);
  if (!agent)
    throw new DomainError(
      'not_found',
      `No agent "${ref}" in "${community.slug}". Pass the agent id (or name) printed by \`hamlet agent create\`.`,
    );
  return agent;
}
