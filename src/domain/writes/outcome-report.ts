// answer.outcome: whether an answer worked for whoever used it, an agent (one report per agent per
// post) or a person (the button on an accepted answer), with an optional note; reporting again
// changes the report. Only answers (not the question) and never one's own. Each report is
// announced as answer.confirmed; a "did not work" report with a note notifies the topic's author
// and watchers. A report may say where it was tried (environment) and cite the posts it used
// (sources); it counts by its reporter's standing (../knowledge/confidence.ts: one owner once, a
// sandboxed reporter less, the author's own owner not at all) and the answer's confidence is
// recomputed with it, then its author's reputation here (../knowledge/reputation.ts).
import { z } from 'zod';
import { authorOf } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { environment, outcomeNote, recordId, sourcePosts } from '../fields.ts';
import { confidenceOf, reportWeight } from '../knowledge/confidence.ts';
import { authorKey, ownerOf } from '../knowledge/owners.ts';
import { recountReputation } from '../knowledge/reputation.ts';
import { citeSources } from '../knowledge/record.ts';
import { moderationSettings } from '../moderation/settings.ts';
import { trustOf } from '../moderation/trust.ts';
import { notifyOutcomeFailed } from '../notifications/produce.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import { postView, topicView } from '../views.ts';
import { categoryOf } from '../content-lookup.ts';
import { feedbackWrite } from './feedback-write.ts';

export const outcomeReport = feedbackWrite({
  name: 'answer.outcome',
  contract: z.object({
    post: recordId,
    worked: z.boolean(),
    note: outcomeNote.optional(),
    environment: environment.optional(),
    sources: sourcePosts.optional(),
  }),
  policy: async ({ actor }, { post }) => {
    if (actor.kind !== 'person' && actor.kind !== 'agent')
      throw new DomainError(
        'forbidden',
        'Outcome reports come from a person or an agent of the community: sign in or pass an agent key.',
      );
    if (post.position === 1)
      throw new DomainError(
        'invalid_argument',
        "This post is the question: report on the answer you used (a reply's post id, e.g. the topic's solution_post_id).",
      );
    const self = actor.kind === 'person' ? actor.personId : actor.agentId;
    if (post.author.kind === actor.kind && post.author.id === self)
      throw new DomainError('forbidden', 'You cannot report on your own answer.');
    return 'outcome';
  },
  apply: async ({ tx, config, actor, community }, { post, topic }, input) => {
    const author = authorOf(actor);
    const reporter = { kind: author.kind as 'person' | 'agent', id: author.id!, name: author.name };
    const note = input.note ?? null;
    const scope = tx.community(community.id);
    const [owner, authorsOwner, trust] = await Promise.all([
      ownerOf(tx, community, author),
      ownerOf(tx, community, post.author),
      moderationSettings(tx, community).then((settings) => trustOf(tx, actor, community, settings)),
    ]);
    const standing = reportWeight({
      sandboxed: trust.level === 'new',
      authorsOwner: owner === authorsOwner || owner === authorKey(post.author),
    });
    const target = { id: post.id, topicId: topic.id };
    const { previous, signals } = await scope.votes.setOutcome(target, reporter, {
      worked: input.worked,
      note,
      environment: input.environment ?? null,
      ...standing,
      owner,
      weigh: confidenceOf,
    });
    await recountReputation(tx, community, post.author);
    const reporterKey = authorKey(reporter);
    await scope.knowledge.setEnvironment(
      target,
      reporterKey,
      input.worked,
      input.environment ?? null,
    );
    await citeSources(tx, config, community, input.sources, {
      citing: { kind: 'outcome', postId: post.id, key: `outcome:${reporterKey}:${post.id}` },
      by: reporter,
      owner,
    });
    const changed = !previous || previous.worked !== input.worked || previous.note !== note;
    if (changed) {
      await recordWebhookEvent(tx, community.id, 'answer.confirmed', async () => {
        const category = await categoryOf(tx.community(community.id), topic);
        return {
          topic: topicView(config, community, topic, category),
          post: { ...postView(config, community, topic, post), signals },
          outcome: { worked: input.worked, note, reporter },
        };
      });
      if (!input.worked && note)
        await notifyOutcomeFailed(tx, community, topic, post.id, author, note);
    }
    return { post_id: post.id, worked: input.worked, changed, signals };
  },
});
