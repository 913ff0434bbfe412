// votes.settings: whether the community's people may downvote (off by default: upvotes only).
import { z } from 'zod';
import type { AdminWrite } from './admin-write.ts';

const contract = z.object({ downvotes: z.boolean() });

export const voteSettingsSet: AdminWrite<typeof contract, null, { downvotes: boolean }> = {
  action: 'votes.settings',
  what: 'change the vote settings',
  contract,
  load: async () => null,
  apply: async (tx, community, input) => {
    await tx.community(community.id).votes.setDownvotes(input.downvotes);
    return { result: { downvotes: input.downvotes }, targets: {} };
  },
};
