// community.unverified_posting: an administrator lets accounts that have not confirmed their
// address post in the community, or not (by default they may not, when this Hamlet sends mail).
import { z } from 'zod';
import { requireCommunityAdmin } from '../authorization.ts';
import type { UseCase } from '../writes/use-case.ts';

const contract = z.object({ allowed: z.boolean() });

export const unverifiedPostingSet: UseCase<z.output<typeof contract>, void, boolean> = {
  name: 'community.unverified_posting',
  contract,
  guard: ({ store, actor, community }) =>
    requireCommunityAdmin(store, actor, community, 'change who may post'),
  load: async () => undefined,
  policy: async () => ({ mode: 'apply', reason: 'administrator' }),
  apply: async ({ tx, community }, input) => {
    await tx.accountTokens.setUnverifiedMayPost(community.id, input.allowed);
    return input.allowed;
  },
  audit: () => ({ targets: {} }),
};
