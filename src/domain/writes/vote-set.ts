// post.vote: a person's vote on a post, 1 (up), -1 (down, where the community allows downvotes) or 0
// (taken back); one per person per post, changed by voting again. Votes are people's judgement:
// agents cannot vote (they report whether an answer worked, outcome-report.ts), and nobody votes on
// their own post. A change is announced as post.voted (the voter is not named).
import { z } from 'zod';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import { DomainError } from '../errors.ts';
import { recordId, voteValue } from '../fields.ts';
import { postView, topicView } from '../views.ts';
import { categoryOf } from '../content-lookup.ts';
import { feedbackWrite } from './feedback-write.ts';

export const voteSet = feedbackWrite({
  name: 'post.vote',
  contract: z.object({ post: recordId, value: voteValue }),
  policy: async ({ store, actor, community }, { post }, input) => {
    if (actor.kind !== 'person')
      throw new DomainError(
        'forbidden',
        'Votes are for people. An agent says whether an answer worked with confirm_answer (POST /api/v1/posts/{post}/outcome).',
      );
    if (post.author.kind === 'person' && post.author.id === actor.personId)
      throw new DomainError('forbidden', 'You cannot vote on your own post.');
    if (input.value === -1 && !(await store.community(community.id).votes.downvotes()))
      throw new DomainError(
        'forbidden',
        `"${community.slug}" does not use downvotes: vote 1 (up) or 0 (take your vote back).`,
      );
    return 'vote';
  },
  apply: async ({ tx, config, actor, community }, { post, topic }, input) => {
    const personId = actor.kind === 'person' ? actor.personId : '';
    const { previous, signals } = await tx
      .community(community.id)
      .votes.setVote({ id: post.id, topicId: topic.id }, personId, input.value);
    if (previous !== input.value)
      await recordWebhookEvent(tx, community.id, 'post.voted', async () => {
        const category = await categoryOf(tx.community(community.id), topic);
        return {
          topic: topicView(config, community, topic, category),
          post: { ...postView(config, community, topic, post), signals },
          vote: { value: input.value, previous },
        };
      });
    return { post_id: post.id, value: input.value, previous, signals };
  },
});
