// One review queue for those who decide it (moderators, agents with approval:decide): the writes
// waiting for approval and the posts with open flags, oldest first, each saying why it is there
// (the policy's named reason, or the flags' reasons and notes). A decision goes to the approval
// queue (approve / reject with a reason) or to the flags (hide / dismiss).
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { FlagRecord } from '../../store/moderation.ts';
import type { Actor } from '../actor.ts';
import { authorOf, requireDecider, requireRead } from '../authorization.ts';
import { categoryOf, findTopic } from '../content-lookup.ts';
import { approvalView } from '../writes/approvals.ts';
import { DomainError } from '../errors.ts';
import { pageLimit, reason as reasonField, recordId } from '../fields.ts';
import { parse } from '../validate.ts';
import { postView, topicView, type HiddenNotice, type PostView, type TopicView } from '../views.ts';
import type { ApprovalService, ApprovalView } from '../writes/approvals.ts';
import type { RunOptions } from '../writes/runner.ts';
import { NOUN } from '../writes/content-writes.ts';
import type { WriteKind } from '../vocabulary.ts';
import type { FlagService, HideOutcome } from './flags.ts';
import { hiddenNotice } from './hidden.ts';

export type FlagView = {
  reason: string;
  note: string | null;
  by: { kind: 'person' | 'agent'; name: string };
  trusted: boolean;
  at: string;
};

export type ReviewItem =
  | { kind: 'approval'; id: string; at: string; why: string; approval: ApprovalView }
  | {
      kind: 'flag';
      id: string;
      at: string;
      why: string;
      topic: TopicView;
      post: PostView;
      flags: FlagView[];
      hidden: HiddenNotice | null;
    };

export const reviewDecisionSchema = z.object({
  kind: z.enum(['approval', 'flag']),
  id: recordId,
  decision: z.enum(['approve', 'reject', 'hide', 'dismiss']),
  reason: reasonField.optional(),
});

/** Why a queued write waits, in words, with the policy's named reason. */
export function whyQueued(reason: string | undefined, kind: WriteKind): string {
  if (!reason) return `queued by the approval policy for ${NOUN[kind]}s`;
  if (reason === 'first_post') return 'queued: the first post of a new account here (first_post)';
  if (reason.startsWith('category_policy:'))
    return `queued: category "${reason.slice('category_policy:'.length)}" approves new topics (${reason})`;
  return `queued: this community approves every ${NOUN[kind]} (${reason})`;
}

function whyFlagged(flags: FlagView[]): string {
  const counts = new Map<string, number>();
  for (const f of flags) counts.set(f.reason, (counts.get(f.reason) ?? 0) + 1);
  const reasons = [...counts].map(([r, n]) => (n > 1 ? `${r} ×${n}` : r)).join(', ');
  const notes = flags.filter((f) => f.note).map((f) => `“${f.note}” (${f.by.name})`);
  return `flagged: ${reasons}${notes.length ? `; ${notes.join('; ')}` : ''}`;
}

function flagView(f: FlagRecord): FlagView {
  return {
    reason: f.reason,
    note: f.note,
    by: { kind: f.flagger.kind, name: f.flagger.name },
    trusted: f.trusted,
    at: f.createdAt,
  };
}

export class ReviewService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly approvals: ApprovalService,
    private readonly flags: FlagService,
  ) {}

  async list(
    actor: Actor,
    community: Community,
    input: { limit?: number } = {},
  ): Promise<{ items: ReviewItem[] }> {
    await requireDecider(this.store, actor, community);
    const { limit } = parse(z.object({ limit: pageLimit(100, 50) }), input);
    const scope = this.store.community(community.id);
    const { approvals } = await this.approvals.list(actor, community, { status: 'pending', limit });
    const reasons = await scope.moderation.queuedReasons(approvals.map((a) => a.approval_id));
    const items: ReviewItem[] = approvals.map((a) => ({
      kind: 'approval',
      id: a.approval_id,
      at: a.submitted_at,
      why: whyQueued(reasons.get(a.approval_id), a.kind),
      approval: a,
    }));
    const byPost = new Map<string, FlagRecord[]>();
    for (const f of await scope.moderation.openFlags(limit * 20)) {
      if (!byPost.has(f.postId) && byPost.size >= limit) continue;
      byPost.set(f.postId, [...(byPost.get(f.postId) ?? []), f]);
    }
    const hidden = new Map(
      (await scope.moderation.hiddenAmong([...byPost.keys()])).map((h) => [h.postId, h]),
    );
    for (const [postId, records] of byPost) {
      const post = await scope.posts.getById(postId);
      const topic = post && (await scope.topics.getById(post.topicId));
      if (!post || !topic) continue;
      const category = await categoryOf(scope, topic);
      const flags = records.map(flagView);
      const h = hidden.get(postId);
      items.push({
        kind: 'flag',
        id: postId,
        at: records[0]!.createdAt,
        why: whyFlagged(flags),
        topic: topicView(this.config, community, topic, category),
        post: postView(this.config, community, topic, post),
        flags,
        hidden: h ? hiddenNotice(h) : null,
      });
    }
    items.sort((a, b) => a.at.localeCompare(b.at));
    return { items };
  }

  /**
   * The actor's own replies to one topic that wait for a moderator or were turned down (newest 50
   * writes looked at): what the topic page shows its author in place, with why.
   */
  async mine(
    actor: Actor,
    community: Community,
    input: { topic: string },
  ): Promise<{ writes: { approval: ApprovalView; why: string }[] }> {
    requireRead(actor, community);
    const me = authorOf(actor);
    if ((me.kind !== 'person' && me.kind !== 'agent') || !me.id) return { writes: [] };
    const scope = this.store.community(community.id);
    const topic = await findTopic(scope, parse(z.object({ topic: recordId }), input).topic);
    const page = await scope.access.approvals.list({ submitterId: me.id, limit: 50 });
    const here = page.items.filter((a) => {
      const ref = (a.payload as { topic?: unknown } | null)?.topic;
      return (
        a.kind === 'post.create' &&
        (ref === topic.id || ref === topic.slug) &&
        ['pending', 'rejected', 'failed'].includes(a.status)
      );
    });
    const reasons = await scope.moderation.queuedReasons(here.map((a) => a.id));
    return {
      writes: here.map((a) => ({
        approval: approvalView(a, community),
        why: whyQueued(reasons.get(a.id), a.kind as WriteKind),
      })),
    };
  }

  async decide(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: RunOptions,
  ): Promise<{ kind: 'approval'; approval: ApprovalView } | { kind: 'flag'; flag: HideOutcome }> {
    await requireDecider(this.store, actor, community);
    const d = parse(reviewDecisionSchema, input);
    if (d.kind === 'approval') {
      if (d.decision === 'approve')
        return {
          kind: 'approval',
          approval: await this.approvals.approve(actor, community, d.id, options),
        };
      if (d.decision === 'reject') {
        if (!d.reason)
          throw new DomainError(
            'invalid_argument',
            'reason: rejecting a queued write needs a reason its submitter reads.',
          );
        return {
          kind: 'approval',
          approval: await this.approvals.reject(actor, community, d.id, d.reason, options),
        };
      }
      throw new DomainError(
        'invalid_argument',
        `decision: a queued write is approved or rejected, not "${d.decision}".`,
      );
    }
    if (d.decision !== 'hide' && d.decision !== 'dismiss')
      throw new DomainError(
        'invalid_argument',
        `decision: a flagged post is hidden or its flags dismissed ("hide" or "dismiss"), not "${d.decision}".`,
      );
    return {
      kind: 'flag',
      flag: await this.flags.decide(
        actor,
        community,
        { post: d.id, decision: d.decision, note: d.reason },
        options,
      ),
    };
  }
}
