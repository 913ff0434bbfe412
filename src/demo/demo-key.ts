// The demo's agent: `hamlet serve --demo` prints a fresh key for it at every start, so a newcomer can
// point an MCP client at acme at once. Earlier demo keys are revoked: only the printed one works.
import type { Store } from '../store/repositories.ts';
import { systemActor } from '../domain/actor.ts';
import type { AgentService } from '../domain/identity/agents.ts';

export const DEMO_AGENT = 'demo-agent';
const DEMO_SCOPES = [
  'topic:create',
  'post:create',
  'solution:mark',
  'article:write',
  'approval:decide',
  'topic:moderate',
] as const;

export async function freshDemoAgentKey(
  store: Store,
  agents: AgentService,
): Promise<{ community: string; key: string } | undefined> {
  const acme = await store.communities.getBySlug('acme');
  if (!acme) return undefined;
  const system = systemActor('demo');
  const existing = await store.community(acme.id).agents.getByName(DEMO_AGENT);
  if (!existing) {
    const { key } = await agents.create(system, acme, {
      name: DEMO_AGENT,
      scopes: [...DEMO_SCOPES],
    });
    return { community: acme.slug, key };
  }
  for (const k of await agents.listKeys(system, acme, { agent: existing.id })) {
    if (!k.revokedAt) await agents.revokeKey(system, acme, { key: k.id });
  }
  const { key } = await agents.mintKey(system, acme, { agent: existing.id });
  return { community: acme.slug, key };
}
