// Flags on posts and hiding them. Anyone who may write here flags a post once (a second flag by the
// same person or agent changes nothing and says so); enough open flags from trusted members hide
// it until a moderator decides: hide (the flags are upheld, the author is told) or dismiss (the
// post is shown again). Moderators and agents with approval:decide may also hide and show a post
// directly. Flaggers hear the decision as a notification.
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community, Post, Topic } from '../../store/types.ts';
import type { FlagRecord } from '../../store/moderation.ts';
import type { NewNotification } from '../../store/notifications.ts';
import type { Actor } from '../actor.ts';
import { authorOf, requireDecider, requireWrite } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { reason as reasonField, recordId } from '../fields.ts';
import { parse } from '../validate.ts';
import { postView, topicView } from '../views.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import { seesHidden } from './hidden.ts';
import { moderationSettings } from './settings.ts';
import { trustOf } from './trust.ts';
import { FLAG_REASONS, type FlagDecision, type FlagReason } from './vocabulary.ts';
import { categoryOf } from '../content-lookup.ts';

export const flagSchema = z
  .object({
    post: recordId,
    reason: z.enum(FLAG_REASONS),
    note: reasonField.optional(),
  })
  .refine((f) => f.reason !== 'other' || f.note, {
    message: 'A flag with reason "other" needs a note saying what is wrong with the post.',
    path: ['note'],
  });

export type FlagOutcome = {
  flagId: string;
  postId: string;
  reason: FlagReason;
  /** false: this flagger had flagged the post already (the first flag stands). */
  added: boolean;
  trusted: boolean;
  openFlags: number;
  hidden: boolean;
  message: string;
};

export type HideOutcome = {
  postId: string;
  hidden: boolean;
  settledFlags: number;
  message: string;
};

type Target = { post: Post; topic: Topic };

export class FlagService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
  ) {}

  async flag(actor: Actor, community: Community, input: unknown): Promise<FlagOutcome> {
    requireWrite(actor, community);
    const data = parse(flagSchema, input);
    const { post, topic } = await this.target(actor, community, data.post);
    const me = authorOf(actor);
    if (me.kind !== 'person' && me.kind !== 'agent')
      throw new DomainError('forbidden', 'Flags are raised by people and agents of the community.');
    if (post.author.kind === me.kind && post.author.id === me.id)
      throw new DomainError(
        'forbidden',
        'This is your own post: edit it or reply instead of flagging it.',
      );
    const settings = await moderationSettings(this.store, community);
    const trust = await trustOf(this.store, actor, community, settings);
    const trusted = trust.level === 'trusted';
    const { added, flag } = await this.store.transaction(async (tx) => {
      const r = await tx.community(community.id).moderation.addFlag({
        postId: post.id,
        topicId: topic.id,
        flagger: { kind: me.kind as 'person' | 'agent', id: me.id!, name: me.name },
        reason: data.reason,
        note: data.note ?? null,
        trusted,
      });
      if (r.added) await this.flaggedEvent(tx, community, target(post, topic), r.flag);
      return r;
    });
    // Counted after the commit: of concurrent flaggers, the last to commit sees every flag.
    const scope = this.store.community(community.id).moderation;
    const trustedFlags = await scope.openFlagCount(post.id, true);
    let hidden = (await scope.hiddenAmong([post.id])).length > 0;
    if (!hidden && trustedFlags >= settings.flags_to_hide) {
      await scope.hide({
        postId: post.id,
        topicId: topic.id,
        position: post.position,
        cause: 'flags',
        note: `${trustedFlags} flags from trusted members`,
        byName: 'flags',
      });
      hidden = true;
    }
    const openFlags = await scope.openFlagCount(post.id, false);
    return {
      flagId: flag.id,
      postId: post.id,
      reason: flag.reason as FlagReason,
      added,
      trusted: flag.trusted,
      openFlags,
      hidden,
      message: added
        ? `Flagged as ${data.reason}. A moderator of "${community.slug}" will review it${hidden ? '; the post is hidden until then' : ''}.`
        : `You flagged this post already (as ${flag.reason}); the first flag stands and is waiting for a moderator.`,
    };
  }

  /** A moderator's decision on a post: hide it (its open flags upheld) or dismiss its flags (shown). */
  async decide(
    actor: Actor,
    community: Community,
    input: { post: string; decision: FlagDecision; note?: string },
  ): Promise<HideOutcome> {
    await requireDecider(this.store, actor, community);
    const data = parse(
      z.object({
        post: recordId,
        decision: z.enum(['hide', 'dismiss']),
        note: reasonField.optional(),
      }),
      input,
    );
    const { post, topic } = await this.target(actor, community, data.post);
    const by = authorOf(actor).name;
    return this.store.transaction(async (tx) => {
      const scope = tx.community(community.id).moderation;
      const flags = await scope.flagsOf(post.id, 'open');
      let hidden: boolean;
      let settled: number;
      if (data.decision === 'hide') {
        await scope.unhide(post.id); // a moderator's hide replaces one by flags
        await scope.hide({
          postId: post.id,
          topicId: topic.id,
          position: post.position,
          cause: 'moderator',
          note: data.note ?? null,
          byName: by,
        });
        settled = await scope.settleFlags(post.id, 'upheld', by);
        hidden = true;
      } else {
        settled = await scope.settleFlags(post.id, 'dismissed', by);
        await scope.unhide(post.id);
        hidden = false;
      }
      await this.notify(tx, community, actor, { post, topic }, flags, data.decision, data.note);
      return {
        postId: post.id,
        hidden,
        settledFlags: settled,
        message: hidden
          ? `The post is hidden from everyone but moderators${settled ? `; ${settled} flag(s) upheld` : ''}.`
          : `The post is shown${settled ? `; ${settled} flag(s) dismissed` : ''}.`,
      };
    });
  }

  /** The post (and its topic) by id, not_found naming where ids come from; hidden ones only for deciders. */
  private async target(actor: Actor, community: Community, id: string): Promise<Target> {
    const scope = this.store.community(community.id);
    const post = await scope.posts.getById(id);
    const topic = post && (await scope.topics.getById(post.topicId));
    const missing = new DomainError(
      'not_found',
      `No post "${id}" in "${community.slug}". Use a post id from get_topic (posts[].id).`,
    );
    if (!post || !topic) throw missing;
    if (
      (await scope.moderation.hiddenAmong([post.id])).length > 0 &&
      !(await seesHidden(this.store, actor, community))
    )
      throw missing;
    return { post, topic };
  }

  private async flaggedEvent(tx: Store, community: Community, t: Target, flag: FlagRecord) {
    const category = await categoryOf(tx.community(community.id), t.topic);
    await recordWebhookEvent(tx, community.id, 'post.flagged', () => ({
      topic: topicView(this.config, community, t.topic, category),
      post: postView(this.config, community, t.topic, t.post),
      flag: {
        id: flag.id,
        reason: flag.reason,
        note: flag.note,
        flagger: { kind: flag.flagger.kind, name: flag.flagger.name },
        trusted: flag.trusted,
      },
    }));
  }

  /** The post's author hears it was hidden; each person who flagged it hears the decision. */
  private async notify(
    tx: Store,
    community: Community,
    actor: Actor,
    t: Target,
    flags: FlagRecord[],
    decision: FlagDecision,
    note: string | undefined,
  ) {
    const by = authorOf(actor);
    const base = {
      topicId: t.topic.id,
      postId: t.post.id,
      actor: { kind: by.kind, id: by.id, name: by.name },
      title: t.topic.title,
      reason: note ?? null,
    };
    const rows: NewNotification[] = [];
    const at = Date.now();
    if (decision === 'hide' && t.post.author.kind === 'person' && t.post.author.id)
      rows.push({
        ...base,
        recipientId: t.post.author.id,
        kind: 'post_hidden',
        sourceKey: `hidden:${t.post.id}:${at}`,
      });
    for (const f of flags)
      if (f.flagger.kind === 'person')
        rows.push({
          ...base,
          recipientId: f.flagger.id,
          kind: decision === 'hide' ? 'flag_upheld' : 'flag_dismissed',
          sourceKey: `flag:${f.id}`,
        });
    if (rows.length) await tx.community(community.id).notifications.add(rows);
  }
}

function target(post: Post, topic: Topic): Target {
  return { post, topic };
}
