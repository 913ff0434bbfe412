// agent_key.revoke: an administrator revokes an agent key by its id, or by its prefix when that
// names one live key; it stops working at once.
import { z } from 'zod';
import type { AgentKeyRecord } from '../../store/identity.ts';
import { isUuid } from '../../store/ids.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import type { UseCase } from '../writes/use-case.ts';
import type { Clock } from './auth.ts';

const contract = z.object({ key: z.string() });

export function agentKeyRevoke(
  clock: Clock,
): UseCase<z.output<typeof contract>, AgentKeyRecord, AgentKeyRecord> {
  return {
    name: 'agent_key.revoke',
    contract,
    guard: ({ store, actor, community }) =>
      requireCommunityAdmin(store, actor, community, 'revoke agent keys'),
    load: async ({ store, community }, input) => {
      const ref = input.key
        .trim()
        .slice(0, input.key.startsWith('hmlt_live_') && !isUuid(input.key) ? 14 : undefined);
      const access = store.community(community.id).access.agents;
      const live = (await access.findKeys(ref)).filter((k) => !k.revokedAt);
      if (live.length === 0)
        throw new DomainError(
          'not_found',
          `No live agent key "${ref}" in "${community.slug}". List the keys (\`hamlet key list --community ${community.slug}\`) to see their prefixes.`,
        );
      if (live.length > 1)
        throw new DomainError(
          'conflict',
          `The prefix "${ref}" matches ${live.length} live keys in "${community.slug}". Revoke by key id instead (\`hamlet key list\` shows the ids).`,
        );
      return live[0]!;
    },
    policy: async () => ({ mode: 'apply', reason: 'administrator' }),
    apply: async ({ tx, community }, _input, key) => {
      const at = clock().toISOString();
      await tx.community(community.id).access.agents.revokeKey(key.id, at);
      return { ...key, revokedAt: at };
    },
    audit: (revoked) => ({ targets: { key_id: revoked.id } }),
  };
}
