// Deciding a queued write, as use cases of the one runner. Approving applies the stored write
// through its kind's own use case (its load, then its rows), as its submitter, exactly once: the
// pending → approved claim is a conditional UPDATE in the same transaction as the write, so of
// concurrent approvers one applies and the others get a conflict. A stored write that its kind now
// refuses (topic closed meanwhile, category gone) is recorded as failed, with why.
import { z } from 'zod';
import type { ApprovalRecord } from '../../store/identity.ts';
import type { AuthorRef, Community } from '../../store/types.ts';
import type { Store } from '../../store/repositories.ts';
import { systemActor, type Actor } from '../actor.ts';
import { authorOf, requireDecider, requireWrite } from '../authorization.ts';
import { DomainError, isDomainError } from '../errors.ts';
import { reason as reasonField, recordId } from '../fields.ts';
import { notifyDecision } from '../notifications/produce.ts';
import { parse } from '../validate.ts';
import { isRole, isWriteKind, SCOPES } from '../vocabulary.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import { logDecision, queuedWriteTitle } from '../moderation/log-entry.ts';
import { approvalView } from './approval-view.ts';
import type { ContentUseCase, Loaded } from './content-write.ts';
import type { ContentWrites } from './content-writes.ts';
import type { UseCase, WriteContext, WriteStep } from './use-case.ts';
import { asWrittenContent, resultTargets } from './written.ts';

/** Raised when another decider got there first: nothing was changed. */
export class AlreadyDecided extends DomainError {
  constructor(approval: ApprovalRecord | undefined) {
    const by = approval?.decidedBy ? ` by ${approval.decidedBy.name}` : '';
    super(
      'conflict',
      `This approval was already decided (status: ${approval?.status ?? 'unknown'}${by}). Nothing was changed.`,
    );
    this.name = 'AlreadyDecided';
  }
}

/** The stored write was refused by its own rows (the approval's transaction is rolled back). */
export class StoredWriteRefused extends Error {
  constructor(readonly refusal: DomainError) {
    super(refusal.message);
    this.name = 'StoredWriteRefused';
  }
}

/** The approval, pending and not the decider's own (a moderator never decides their own write). */
async function pendingApproval(ctx: WriteContext, id: string): Promise<ApprovalRecord> {
  const { store, community, actor } = ctx;
  const approval = await store.community(community.id).access.approvals.getById(id);
  if (!approval)
    throw new DomainError(
      'not_found',
      `No approval "${id}" in "${community.slug}". List the queue to see pending approvals.`,
    );
  if (approval.status !== 'pending') throw new AlreadyDecided(approval);
  const me = authorOf(actor);
  if (
    actor.kind !== 'system' &&
    me.kind === approval.submitter.kind &&
    me.id === approval.submitter.id
  )
    throw new DomainError(
      'forbidden',
      'You submitted this write yourself; another moderator has to decide it.',
    );
  return approval;
}

/** The write is applied as its submitter (who is named as author), not as the moderator. */
async function submitterActor(
  store: Store,
  approval: ApprovalRecord,
  community: Community,
): Promise<Actor> {
  const s = approval.submitter;
  if (s.kind === 'agent' && s.id)
    return { kind: 'agent', agentId: s.id, communityId: community.id, name: s.name };
  if (s.kind === 'person' && s.id) {
    const m = await store.community(community.id).access.members.get(s.id);
    const roles = m && isRole(m.role) ? { [community.id]: m.role } : {};
    // Written through a connected app: applied with the same label. Its scopes were checked when
    // the write was queued; the approval is the decision now.
    const client = s.via ? { client: { id: '', name: s.via, grantId: '', scopes: SCOPES } } : {};
    return { kind: 'person', personId: s.id, displayName: s.name, roles, ...client };
  }
  return systemActor(s.name);
}

/** pending → rejected|failed, with who is told and the approval.decided event. */
async function recordDecision(
  step: WriteStep,
  id: string,
  to: 'rejected' | 'failed',
  decider: AuthorRef,
  reason: string,
): Promise<ApprovalRecord> {
  const { tx, community } = step;
  const approvals = tx.community(community.id).access.approvals;
  if (!(await approvals.decide(id, to, decider, reason)))
    throw new AlreadyDecided(await approvals.getById(id));
  const decided = (await approvals.getById(id))!;
  if (to === 'rejected')
    await logDecision(tx, community, step.actor, {
      action: 'reject',
      targetTitle: queuedWriteTitle(decided.kind, decided.payload),
      detail: `by ${decided.submitter.name}`,
      reason,
    });
  await notifyDecision(tx, community, decided);
  await recordWebhookEvent(tx, community.id, 'approval.decided', () => ({
    approval: approvalView(decided, community),
  }));
  step.emit({
    type: 'approval.decided',
    communityId: community.id,
    approvalId: decided.id,
    kind: decided.kind,
    status: to,
  });
  return decided;
}

const byId = z.object({ id: recordId });

/** What approving loaded: the approval, its submitter, and the stored write as its kind loads it (or why it cannot apply). */
type Approving = {
  approval: ApprovalRecord;
  submitter: Actor;
  write?: { useCase: ContentUseCase; payload: Record<string, unknown>; loaded: Loaded };
  refused?: DomainError;
};

export function approvalApprove(
  kinds: ContentWrites,
): UseCase<z.output<typeof byId>, Approving, ApprovalRecord> {
  return {
    name: 'approval.approve',
    contract: byId,
    async load(ctx, { id }) {
      await requireDecider(ctx.store, ctx.actor, ctx.community);
      const approval = await pendingApproval(ctx, id);
      const submitter = await submitterActor(ctx.store, approval, ctx.community);
      try {
        if (!isWriteKind(approval.kind))
          throw new DomainError('invalid_argument', `Unknown write "${approval.kind}".`);
        // Its submitter must still be someone who may write here (a person who left a private
        // community cannot be published by a moderator), and the write still what its kind takes.
        requireWrite(submitter, ctx.community);
        const useCase = kinds[approval.kind];
        const payload = parse(useCase.contract, approval.payload);
        const loaded = await useCase.load({ ...ctx, actor: submitter }, payload);
        return { approval, submitter, write: { useCase, payload, loaded } };
      } catch (err) {
        if (!isDomainError(err)) throw err;
        return { approval, submitter, refused: err };
      }
    },
    policy: async () => ({ mode: 'apply', reason: 'decider' }),
    async apply(step, _input, { approval, submitter, write, refused }) {
      const decider = authorOf(step.actor);
      if (!write) return recordDecision(step, approval.id, 'failed', decider, refused!.message);
      const approvals = step.tx.community(step.community.id).access.approvals;
      if (!(await approvals.decide(approval.id, 'approved', decider, null)))
        throw new AlreadyDecided(await approvals.getById(approval.id));
      let written;
      try {
        written = await write.useCase.applyApproved(
          { ...step, actor: submitter },
          write.payload,
          write.loaded,
        );
      } catch (err) {
        throw isDomainError(err) ? new StoredWriteRefused(err) : err;
      }
      await approvals.complete(approval.id, 'applied', written, null);
      const done = (await approvals.getById(approval.id))!;
      const made = asWrittenContent(done.result);
      await logDecision(step.tx, step.community, step.actor, {
        action: 'approve',
        topicId: made?.topic?.id ?? made?.post?.topicId ?? null,
        postId: made?.post?.id ?? null,
        targetTitle: queuedWriteTitle(done.kind, done.payload),
        detail: `by ${done.submitter.name}`,
      });
      await notifyDecision(step.tx, step.community, done);
      await recordWebhookEvent(step.tx, step.community.id, 'approval.decided', () => ({
        approval: approvalView(done, step.community),
      }));
      step.emit({
        type: 'approval.decided',
        communityId: step.community.id,
        approvalId: done.id,
        kind: done.kind,
        status: 'applied',
      });
      return done;
    },
    audit: (a) => ({
      targets: { approval_id: a.id, ...resultTargets(asWrittenContent(a.result)) },
    }),
  };
}

const rejecting = z.object({ id: recordId, reason: reasonField });

export const approvalReject: UseCase<z.output<typeof rejecting>, ApprovalRecord, ApprovalRecord> = {
  name: 'approval.reject',
  contract: rejecting,
  async load(ctx, { id }) {
    await requireDecider(ctx.store, ctx.actor, ctx.community);
    return pendingApproval(ctx, id);
  },
  policy: async () => ({ mode: 'apply', reason: 'decider' }),
  apply: (step, input, approval) =>
    recordDecision(step, approval.id, 'rejected', authorOf(step.actor), input.reason),
  audit: (a) => ({ targets: { approval_id: a.id } }),
};

const failing = z.object({ id: recordId, reason: z.string(), code: z.string() });

/**
 * Approving whose write failed in its rows (the approval's transaction rolled back): recorded
 * failed, with why; its audit entry is the approval's, with the write's error.
 */
export const approvalFail: UseCase<z.output<typeof failing>, ApprovalRecord, ApprovalRecord> = {
  name: 'approval.approve',
  contract: failing,
  load: (ctx, { id }) => pendingApproval(ctx, id),
  policy: async () => ({ mode: 'apply', reason: 'decider' }),
  apply: (step, input, approval) =>
    recordDecision(step, approval.id, 'failed', authorOf(step.actor), input.reason),
  audit: (a, input) => ({
    targets: { approval_id: a.id },
    outcome: 'error',
    errorCode: input.code,
  }),
};
