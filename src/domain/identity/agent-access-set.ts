// agent.access: an administrator replaces an agent's scopes and/or whether it is trusted (what is
// not given stays as it was).
import { z } from 'zod';
import type { Agent } from '../../store/types.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { parse } from '../validate.ts';
import type { UseCase } from '../writes/use-case.ts';
import { agentView, findAgent, scopesSchema, type AgentView } from './agent-records.ts';

// The scopes are checked once the agent is found (the refusal names them as the list they are).
const contract = z.object({
  agent: z.string(),
  scopes: z.unknown().optional(),
  trusted: z.boolean().optional(),
});

type Loaded = { agent: Agent; scopes: string[]; trusted: boolean };

export const agentAccessSet: UseCase<z.output<typeof contract>, Loaded, AgentView> = {
  name: 'agent.access',
  contract,
  guard: ({ store, actor, community }) =>
    requireCommunityAdmin(store, actor, community, 'change agents'),
  load: async ({ store, community }, input) => {
    const agent = await findAgent(store, community, input.agent);
    const current = (await store.community(community.id).access.agents.getGrant(agent.id))!;
    const scopes = input.scopes === undefined ? current.scopes : parse(scopesSchema, input.scopes);
    return { agent, scopes, trusted: input.trusted ?? current.trusted };
  },
  policy: async () => ({ mode: 'apply', reason: 'administrator' }),
  apply: async ({ tx, community }, _input, { agent, scopes, trusted }) => {
    await tx.community(community.id).access.agents.setGrant(agent.id, { scopes, trusted });
    return agentView(agent, { scopes, trusted });
  },
  audit: (view) => ({ targets: { agent_id: view.id } }),
};
