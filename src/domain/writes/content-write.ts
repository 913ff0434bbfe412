// The content writes (topic.create, post.create, solution.mark, article.write: one file per kind
// beside this one) as use cases of the one runner. They share one policy (the system, trusted
// agents and moderators at once; else the category's or the community's policy for the kind, with
// trust and the sandbox of new accounts on top), one queue (a moderator's approval, with its
// webhook event), one apply (the kind's rows through the content service on the transaction, then
// who it notifies) and one answer (WriteResult). Each kind gives its contract, noun, load and rows.
import type { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Category, Community, Topic } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import {
  authorOf,
  requireCanWriteKind,
  requireWrite,
  roleAtLeast,
  roleOf,
} from '../authorization.ts';
import { ContentService } from '../content.ts';
import type { Loaded } from '../content-lookup.ts';
import { ContentEvents } from '../events.ts';
import { queuedLead, withTrust } from '../moderation/sandbox.ts';
import { notifyWritten } from '../notifications/produce.ts';
import type { WriteKind } from '../vocabulary.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import { approvalView } from './approval-view.ts';
import { recordKnowledge } from '../knowledge/written.ts';
import type { Decision, UseCase, WriteContext, WriteStep } from './use-case.ts';
import {
  asJson,
  fromLedger,
  resultTargets,
  type WriteResult,
  type WrittenContent,
} from './written.ts';

export type { Loaded };

/** One kind of content write: its contract, how its messages name it, what it loads, its rows. */
export type ContentKind<K extends WriteKind, S extends z.ZodType> = {
  kind: K;
  noun: string;
  contract: S;
  load(store: Store, community: Community, payload: z.output<S>): Promise<Loaded>;
  /** The rows; `about`: the topic as written, when the load had none (who is told reads it). */
  rows(
    content: ContentService,
    actor: Actor,
    community: Community,
    payload: z.output<S>,
    loaded: Loaded,
  ): Promise<WrittenContent & { about?: Topic }>;
};

/** A content write as the runner's use case: `Loaded` and the kind's payload. */
export type ContentUseCase = UseCase<Record<string, unknown>, Loaded, WriteResult> & {
  kind: WriteKind;
  noun: string;
  /** The rows of an approved write, applied as its submitter (the approval's own use case). */
  applyApproved(step: WriteStep, payload: unknown, loaded: Loaded): Promise<WrittenContent>;
};

/**
 * What content writes check beyond the store: a person may be refused before anything is read
 * (their address is not confirmed yet, where the community asks for it).
 */
export type ContentDeps = { mayPost?(personId: string, community: Community): Promise<void> };

/** Who may write content here at all: write access, and a person's confirmed address. */
export async function mayWriteHere(ctx: WriteContext, deps: ContentDeps): Promise<void> {
  requireWrite(ctx.actor, ctx.community);
  if (ctx.actor.kind === 'person') await deps.mayPost?.(ctx.actor.personId, ctx.community);
}

/**
 * The policy, with its reason: the system, trusted agents and moderators always write at once. A
 * person writing through a connected app is under the policy as agents are, whatever their role.
 * A new topic or article goes by its category's own policy when the category has one, else by the
 * community's for its kind.
 */
export async function decide(
  store: Store,
  actor: Actor,
  community: Community,
  kind: WriteKind,
  category?: Category,
): Promise<{ mode: 'auto' | 'approval'; reason: string }> {
  if (actor.kind === 'system') return { mode: 'auto', reason: 'system' };
  if (actor.kind === 'agent' && actor.trusted) return { mode: 'auto', reason: 'trusted_agent' };
  if (
    actor.kind === 'person' &&
    !actor.client &&
    roleAtLeast(await roleOf(store, actor, community), 'moderator')
  )
    return { mode: 'auto', reason: 'moderator' };
  if (category?.approvalPolicy === 'approval')
    return { mode: 'approval', reason: `category_policy:${category.slug}` };
  if (category?.approvalPolicy === 'auto') return { mode: 'auto', reason: 'category_auto' };
  return (await store.community(community.id).access.policies.get(kind)) === 'approval'
    ? { mode: 'approval', reason: `approval_policy:${kind}` }
    : { mode: 'auto', reason: 'policy_auto' };
}

/** The content service on the transaction, its events held back until the commit. */
function contentOn(step: WriteStep): ContentService {
  const bus = new ContentEvents();
  bus.subscribe((e) => step.emit(e));
  return new ContentService(step.tx, step.config, bus);
}

/**
 * The use case of a content kind. Its guard (before the payload is read) checks write access and
 * the kind's scope; `scopeAfterLoad` leaves the scope to the policy step (a kind that may route).
 */
export function contentWrite<K extends WriteKind, S extends z.ZodType>(
  spec: ContentKind<K, S>,
  deps: ContentDeps,
  options: { scopeAfterLoad?: boolean } = {},
): ContentUseCase {
  const rows = async (step: WriteStep, payload: unknown, loaded: Loaded) => {
    const { about, ...written } = await spec.rows(
      contentOn(step),
      step.actor,
      step.community,
      payload as z.output<S>,
      loaded,
    );
    if (written.post) await recordKnowledge(step, written.post, payload);
    const mentions = await notifyWritten(
      { tx: step.tx, config: step.config, community: step.community },
      spec.kind,
      authorOf(step.actor),
      written,
      about ? { ...loaded, topic: about } : loaded,
      (payload as { createdAt?: string }).createdAt,
    );
    return asJson(mentions ? { ...written, mentions } : written);
  };
  return {
    name: spec.kind,
    kind: spec.kind,
    noun: spec.noun,
    contract: spec.contract as unknown as z.ZodType<Record<string, unknown>>,
    idempotent: true,
    async guard(ctx) {
      await mayWriteHere(ctx, deps);
      if (!options.scopeAfterLoad)
        await requireCanWriteKind(ctx.store, ctx.actor, ctx.community, spec.kind);
    },
    load: (ctx, input) => spec.load(ctx.store, ctx.community, input as z.output<S>),
    async policy(ctx, input, loaded): Promise<Decision> {
      if (options.scopeAfterLoad)
        await requireCanWriteKind(ctx.store, ctx.actor, ctx.community, spec.kind);
      const category = spec.kind === 'post.create' ? undefined : loaded.category;
      const prepared = {
        actor: ctx.actor,
        community: ctx.community,
        command: { kind: spec.kind, payload: input },
        loaded,
      };
      // Trust: sandbox limits and first posts queued for new accounts, trusted members skip the queue.
      const decision = await withTrust(
        ctx.store,
        prepared,
        await decide(ctx.store, ctx.actor, ctx.community, spec.kind, category),
      );
      return { mode: decision.mode === 'auto' ? 'apply' : 'queue', reason: decision.reason };
    },
    apply: async (step, input, loaded, reason) => ({
      status: 'applied',
      kind: spec.kind,
      result: await rows(step, input, loaded),
      reason,
    }),
    queue: async (step, input, _loaded, reason) => {
      const { tx, actor, community } = step;
      const approval = await tx.community(community.id).access.approvals.create({
        kind: spec.kind,
        payload: input,
        submitter: authorOf(actor),
        keyPrefix:
          actor.kind === 'agent' || actor.kind === 'person' ? (actor.keyPrefix ?? null) : null,
      });
      await tx.community(community.id).moderation.noteQueued(approval.id, reason);
      await recordWebhookEvent(tx, community.id, 'approval.requested', () => ({
        approval: approvalView(approval, community),
      }));
      step.emit({
        type: 'approval.requested',
        communityId: community.id,
        approvalId: approval.id,
        kind: spec.kind,
      });
      const lead = queuedLead(reason);
      return {
        status: 'pending_approval',
        kind: spec.kind,
        approval_id: approval.id,
        message: `${lead ? `${lead} ` : ''}Your ${spec.noun} is queued for approval by a moderator of "${community.slug}"; nothing is published until it is approved. Follow it with get_approval and approval_id "${approval.id}": its status moves from pending to applied (published) or rejected (with a reason).`,
        reason,
      };
    },
    applyApproved: rows,
    audit: (r) => ({
      targets: {
        write: r.kind,
        ...(r.status === 'applied' ? resultTargets(r.result) : { approval_id: r.approval_id }),
      },
      outcome: r.status === 'applied' ? 'ok' : 'pending',
    }),
    replayed: fromLedger,
  };
}
