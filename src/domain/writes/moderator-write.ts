// A moderator's actions on a topic or a post (one file per action beside this one: topic-close.ts,
// topic-lock.ts, topic-pin.ts, topic-delete.ts, post-delete.ts, topic-move.ts, topic-tags.ts,
// topic-duplicate.ts, topic-merge.ts) as use cases of the one runner (./runner.ts). They share the
// moderator rule (the guard: moderators and up, agents with "topic:moderate", the system; the
// policy names which), the answer (the topic and post as the faces show them) and what a change
// leaves in its transaction: one moderation log entry and the `topic.moderated` webhook event. An
// action that finds its target already as asked ("unchanged": a retry, a second moderator) writes
// nothing, logs nothing and sends nothing. Each action gives its contract, what it loads (by
// reference, before the transaction: not_found says where to look) and its rows, which decide on
// the target as the transaction reads it again (topicNow, liveTopicNow: a second moderator, or a
// read served before the first one's change, must not change it twice). Nothing is queued and
// nothing replays: moderators act on content others wrote, at once.
import type { z } from 'zod';
import type { CommunityScope } from '../../store/repositories.ts';
import type { ModerationEntry } from '../../store/moderator-actions.ts';
import type { Community, Post, Topic } from '../../store/types.ts';
import { authorOf, requireModerator } from '../authorization.ts';
import { categoryOf, findTopic } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { moderationReason, topicRef } from '../fields.ts';
import { postView, topicView, type PostView, type TopicView } from '../views.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import type { UseCase } from './use-case.ts';

/** Who acted, and when: the name the log, the notices and the webhook show. */
export type Moderator = { kind: 'person' | 'agent' | 'system'; id: string | null; name: string };

/**
 * What an action did: the topic (and post) as they are now and what else it names; `unchanged`
 * when they already were as asked (a retry, a second moderator): nothing is logged or sent then.
 */
export type Moderated = { topic: Topic; post?: Post; detail?: string; unchanged?: boolean };

/** Inside an action's transaction: the community's scope on it, who acts, and when. */
export type ModeratorStep = {
  scope: CommunityScope;
  community: Community;
  moderator: Moderator;
  at: string;
};

/** One moderator action: its name, contract, what it loads and its rows. */
export type ModeratorKind<I extends { reason?: string }, L> = {
  /** The log's and the webhook's action ("close", "delete_post", …); audited as "topic.<action>". */
  action: string;
  /** What the refusal says a non-moderator may not do ("close topics"). */
  what: string;
  contract: z.ZodType<I>;
  /** Finds what the action names, before the transaction (not_found naming where to find valid ones). */
  load(scope: CommunityScope, community: Community, input: I): Promise<L>;
  /** Writes its rows (none when the target, read again here, already is as asked: `unchanged`). */
  apply(step: ModeratorStep, input: I, loaded: L): Promise<Moderated>;
};

/** An action's result: the topic (and post) as the faces present them, and its log entry (none when unchanged). */
export type ModerationResult = { topic: TopicView; post?: PostView; entry: ModerationEntry | null };

export type ModeratorUseCase<I, L> = UseCase<I, L, ModerationResult>;

/** Every action's topic and reason fields. */
export const onTopic = {
  topic: topicRef,
  reason: moderationReason.default(''),
};

/** Refuses a topic merged away: it is a pointer, and takes no action but a restore. */
function notMerged(topic: Topic): Topic {
  if (topic.moderation.mergedInto)
    throw new DomainError(
      'conflict',
      `"${topic.title}" was merged into another topic and holds no posts: act on the topic it was merged into.`,
    );
  return topic;
}

/** The topic an action is on (one merged away is refused). */
export async function loadTopic(scope: CommunityScope, ref: string): Promise<Topic> {
  return notMerged(await findTopic(scope, ref));
}

/** The topic as the action's transaction reads it (it was found before: it still exists). */
export async function topicNow(scope: CommunityScope, loaded: Topic): Promise<Topic> {
  return changed(scope.topics.getById(loaded.id));
}

/** The topic as the transaction reads it, refused if it was merged away meanwhile. */
export async function liveTopicNow(scope: CommunityScope, loaded: Topic): Promise<Topic> {
  return notMerged(await topicNow(scope, loaded));
}

/** The topic a store change answered (it exists: it was read in the same transaction). */
export async function changed(answer: Promise<Topic | undefined>): Promise<Topic> {
  const topic = await answer;
  if (!topic) throw new Error('a topic read in this transaction is gone');
  return topic;
}

/** The use case of a moderator action: moderator rule → contract → load → rows, log, event. */
export function moderatorWrite<I extends { reason?: string }, L>(
  kind: ModeratorKind<I, L>,
): ModeratorUseCase<I, L> {
  return {
    name: `topic.${kind.action}`,
    contract: kind.contract,
    guard: (ctx) => requireModerator(ctx.store, ctx.actor, ctx.community, kind.what),
    load: (ctx, input) => kind.load(ctx.store.community(ctx.community.id), ctx.community, input),
    policy: async (ctx) => ({
      mode: 'apply',
      reason: ctx.actor.kind === 'system' ? 'system' : 'moderator',
    }),
    async apply(step, input, loaded) {
      const { tx, community, config } = step;
      const scope = tx.community(community.id);
      const { kind: by, id, name } = authorOf(step.actor);
      const moderator: Moderator = { kind: by, id, name };
      const done = await kind.apply(
        { scope, community, moderator, at: new Date().toISOString() },
        input,
        loaded,
      );
      const topic = topicView(config, community, done.topic, await categoryOf(scope, done.topic));
      const post = done.post && postView(config, community, done.topic, done.post);
      if (done.unchanged) return { topic, post, entry: null };
      const reason = input.reason ?? '';
      const detail = done.detail ?? '';
      const entry = await scope.moderatorActions.log({
        action: kind.action,
        actor: moderator,
        topicId: done.topic.id,
        postId: done.post?.id ?? null,
        targetTitle: done.topic.title,
        detail,
        reason,
      });
      await recordWebhookEvent(tx, community.id, 'topic.moderated', () => ({
        topic,
        ...(post ? { post } : {}),
        action: kind.action,
        by: moderator,
        reason,
        detail,
      }));
      return { topic, post, entry };
    },
    audit: (r) => ({ targets: { topic_id: r.topic.id, post_id: r.post?.id } }),
  };
}
