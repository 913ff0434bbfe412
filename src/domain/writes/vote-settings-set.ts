// votes.settings: whether the community's people may downvote (off by default: upvotes only).
import { z } from 'zod';
import { byAdministrator } from './admin-write.ts';
import type { UseCase } from './use-case.ts';

const contract = z.object({ downvotes: z.boolean() });

export const voteSettingsSet: UseCase<z.output<typeof contract>, null, { downvotes: boolean }> = {
  name: 'votes.settings',
  contract,
  ...byAdministrator('change the vote settings'),
  load: async () => null,
  apply: async ({ tx, community }, input) => {
    await tx.community(community.id).votes.setDownvotes(input.downvotes);
    return { downvotes: input.downvotes };
  },
  audit: () => ({ targets: {} }),
};
