// answer.dispute_clear: a moderator clears an answer's dispute (its failures were answered, or
// were wrong): failures reported before now no longer dispute it; newer ones from two or more
// trusted reporters dispute it again. Clearing an undisputed answer changes nothing but the date.
// Its author's reputation is recounted (a disputed answer weighs on it).
import { z } from 'zod';
import { requireModerator } from '../authorization.ts';
import { recordId } from '../fields.ts';
import { feedbackWrite } from '../writes/feedback-write.ts';
import { confidenceOf } from './confidence.ts';
import { recountReputation } from './reputation.ts';

export const disputeClear = feedbackWrite({
  name: 'answer.dispute_clear',
  contract: z.object({ post: recordId }),
  policy: async ({ store, actor, community }) => {
    await requireModerator(store, actor, community, "clear an answer's dispute");
    return 'moderator';
  },
  apply: async ({ tx, community }, { post, topic }) => {
    const signals = await tx
      .community(community.id)
      .votes.clearDispute({ id: post.id, topicId: topic.id }, confidenceOf);
    await recountReputation(tx, community, post.author);
    return { post_id: post.id, signals };
  },
});
