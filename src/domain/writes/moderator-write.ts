// The shape of a moderator's action on a topic or a post (one file per action beside this one:
// topic-close.ts, topic-lock.ts, topic-pin.ts, topic-delete.ts, post-delete.ts, topic-move.ts,
// topic-tags.ts, topic-duplicate.ts, topic-merge.ts) and its runner. The steps, in order: policy
// (the moderator rule, src/domain/authorization.ts, refused with what to do) → contract → transaction
// {load, rows, one moderation log entry, the `topic.moderated` webhook event} → one audit entry (the
// caller's when it audits the call itself: the pipeline). Nothing is queued and nothing replays:
// moderators act on content others wrote, at once.
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { ModerationEntry } from '../../store/moderator-actions.ts';
import type { Community, Post, Topic } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { authorOf, requireModerator } from '../authorization.ts';
import { categoryOf, findTopic } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { moderationReason, topicRef } from '../fields.ts';
import type { AuditService } from '../identity/audit.ts';
import { errorOutcome } from '../identity/audit.ts';
import { parse } from '../validate.ts';
import { postView, topicView, type PostView, type TopicView } from '../views.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import type { CallAudit } from './write-service.ts';

/** Who acted, and when: the name the log, the notices and the webhook show. */
export type Moderator = { kind: 'person' | 'agent' | 'system'; id: string | null; name: string };

/**
 * What an action did: the topic (and post) as they are now and what else it names; `unchanged`
 * when they already were as asked (a retry, a second moderator): nothing is logged or sent then.
 */
export type Moderated = { topic: Topic; post?: Post; detail?: string; unchanged?: boolean };

export type ModeratorWrite<C extends z.ZodType, L> = {
  /** The log's and the webhook's action ("close", "delete_post", …); audited as "topic.<action>". */
  action: string;
  /** What the refusal says a non-moderator may not do ("close topics"). */
  what: string;
  contract: C;
  /** Reads what the action needs inside its transaction (not_found naming where to find valid ones). */
  load(tx: Store, community: Community, input: z.output<C>): Promise<L>;
  /** Writes its rows (none when the target already is as asked: `unchanged`). */
  apply(
    tx: Store,
    community: Community,
    input: z.output<C>,
    loaded: L,
    by: { moderator: Moderator; at: string },
  ): Promise<Moderated>;
};

export type ModeratorWriteOptions = { ip?: string | null; audit?: CallAudit };

/** An action's result: the topic (and post) as the faces present them, and its log entry (none when unchanged). */
export type ModerationResult = { topic: TopicView; post?: PostView; entry: ModerationEntry | null };

/** Every action's topic and reason fields. */
export const onTopic = {
  topic: topicRef,
  reason: moderationReason.default(''),
};

/** The topic an action is on; one merged away is a pointer, and takes no action but a restore. */
export async function loadTopic(tx: Store, community: Community, ref: string): Promise<Topic> {
  const topic = await findTopic(tx.community(community.id), ref);
  if (topic.moderation.mergedInto)
    throw new DomainError(
      'conflict',
      `"${topic.title}" was merged into another topic and holds no posts: act on the topic it was merged into.`,
    );
  return topic;
}

/** The topic after a change the store made (it exists: it was loaded in the same transaction). */
export async function changed(tx: Store, community: Community, id: string): Promise<Topic> {
  return (await tx.community(community.id).topics.getById(id))!;
}

/** Runs one moderator action: policy → contract → transaction {load, rows, log, event} → audit. */
export async function runModeratorWrite<C extends z.ZodType, L>(
  deps: { store: Store; audit: AuditService; config: Config },
  write: ModeratorWrite<C, L>,
  actor: Actor,
  community: Community,
  payload: unknown,
  options: ModeratorWriteOptions = {},
): Promise<ModerationResult> {
  const action = `topic.${write.action}`;
  const record = (event: Parameters<AuditService['record']>[1]) =>
    options.audit ? undefined : deps.audit.record(actor, event);
  try {
    await requireModerator(deps.store, actor, community, write.what);
    const input = parse(write.contract, payload) as z.output<C> & { reason?: string };
    const { kind, id, name } = authorOf(actor);
    const moderator: Moderator = { kind, id, name };
    const result = await deps.store.transaction(async (tx) => {
      const scope = tx.community(community.id);
      const loaded = await write.load(tx, community, input);
      const done = await write.apply(tx, community, input, loaded, {
        moderator,
        at: new Date().toISOString(),
      });
      const reason = input.reason ?? '';
      const category = await categoryOf(scope, done.topic);
      const topic = topicView(deps.config, community, done.topic, category);
      const post = done.post && postView(deps.config, community, done.topic, done.post);
      if (done.unchanged) return { topic, post, entry: null };
      const entry = await scope.moderatorActions.log({
        action: write.action,
        actor: moderator,
        topicId: done.topic.id,
        postId: done.post?.id ?? null,
        targetTitle: done.topic.title,
        detail: done.detail ?? '',
        reason,
      });
      await recordWebhookEvent(tx, community.id, 'topic.moderated', () => ({
        topic,
        ...(post ? { post } : {}),
        action: write.action,
        by: moderator,
        reason,
        detail: done.detail ?? '',
      }));
      return { topic, post, entry };
    });
    const targets = { topic_id: result.topic.id, post_id: result.post?.id };
    if (options.audit) Object.assign(options.audit.targets, targets);
    await record({ communityId: community.id, action, targets, outcome: 'ok', ip: options.ip });
    return result;
  } catch (err) {
    await record({ communityId: community.id, action, ip: options.ip, ...errorOutcome(err) });
    throw err;
  }
}
