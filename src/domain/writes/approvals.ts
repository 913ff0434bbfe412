// The approval queue: per-community policies per write kind, and the decisions. Approving applies
// the stored write exactly once: the pending → approved claim is a conditional UPDATE in the same
// transaction as the write, so of concurrent approvers one applies and the others get a conflict.
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { AuthorRef, Community } from '../../store/types.ts';
import type { ApprovalRecord } from '../../store/identity.ts';
import { systemActor, type Actor } from '../actor.ts';
import {
  authorOf,
  requireCommunityAdmin,
  requireDecider,
  requireRead,
  requireWrite,
  roleAtLeast,
  roleOf,
} from '../authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../cursor.ts';
import { DomainError, isDomainError } from '../errors.ts';
import type { ContentEvent, ContentEvents } from '../events.ts';
import { cursor, pageLimit, reason as reasonField, recordId } from '../fields.ts';
import { AuditService, errorOutcome } from '../identity/audit.ts';
import { parse } from '../validate.ts';
import {
  APPROVAL_STATUSES,
  isRole,
  isWriteKind,
  POLICY_MODES,
  SCOPES,
  WRITE_KINDS,
  type ApprovalStatus,
  type PolicyMode,
  type WriteKind,
} from '../vocabulary.ts';
import {
  applyCommand,
  asJson,
  asWrittenContent,
  loadCommand,
  deferredContent,
  resultTargets,
  type WrittenContent,
} from './apply.ts';
import { recordWebhookEvent } from '../webhooks/outbox.ts';
import { commandOf } from './use-case.ts';

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

export type ApprovalView = {
  approval_id: string;
  kind: WriteKind;
  status: ApprovalStatus;
  submitted_by: AuthorRef;
  submitted_at: string;
  decided_by: AuthorRef | null;
  decided_at: string | null;
  reason: string | null;
  /** What the applied write returned (the created topic / post with its url), once applied. */
  result: WrittenContent | null;
  payload: unknown;
  message: string;
};

function message(a: ApprovalRecord, slug: string): string {
  switch (a.status as ApprovalStatus) {
    case 'pending':
      return `Waiting for a moderator of "${slug}" to approve or reject it. Nothing is published yet; check again later with get_approval.`;
    case 'approved':
      return 'Approved; it is being applied now. Check again in a moment.';
    case 'applied':
      return `Approved by ${a.decidedBy?.name ?? 'a moderator'} and published.`;
    case 'rejected':
      return `Rejected by ${a.decidedBy?.name ?? 'a moderator'}${a.reason ? `: ${a.reason}` : ''}. Nothing was published; revise it and submit again if it still makes sense.`;
    case 'failed':
      return `Approved, but applying it failed: ${a.reason ?? 'unknown reason'}. Nothing was published; fix the request and submit it again.`;
  }
}

export function approvalView(a: ApprovalRecord, community: Community): ApprovalView {
  return {
    approval_id: a.id,
    kind: a.kind as WriteKind,
    status: a.status as ApprovalStatus,
    submitted_by: a.submitter,
    submitted_at: a.createdAt,
    decided_by: a.decidedBy,
    decided_at: a.decidedAt,
    reason: a.reason,
    result: asWrittenContent(a.result),
    payload: a.payload,
    message: message(a, community.slug),
  };
}

export class ApprovalService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    /** Receives approval.* and content events after commit. */
    private readonly events: ContentEvents,
    private readonly audit: AuditService,
  ) {}

  // — policies —

  async getPolicies(actor: Actor, community: Community): Promise<Record<WriteKind, PolicyMode>> {
    requireRead(actor, community);
    const set = new Map(
      (await this.store.community(community.id).access.policies.list()).map((p) => [
        p.kind,
        p.mode,
      ]),
    );
    return Object.fromEntries(WRITE_KINDS.map((k) => [k, set.get(k) ?? 'auto'])) as Record<
      WriteKind,
      PolicyMode
    >;
  }

  async setPolicy(
    actor: Actor,
    community: Community,
    input: { kind: string; mode: string },
  ): Promise<{ kind: WriteKind; mode: PolicyMode }> {
    await requireCommunityAdmin(this.store, actor, community, 'change approval policies');
    const data = parse(z.object({ kind: z.enum(WRITE_KINDS), mode: z.enum(POLICY_MODES) }), input);
    await this.store.community(community.id).access.policies.set(data.kind, data.mode);
    await this.audit.record(actor, {
      communityId: community.id,
      action: 'policy.set',
      targets: { kind: data.kind, mode: data.mode },
      outcome: 'ok',
    });
    return data;
  }

  // — reading —

  /** One approval: its submitter sees their own; deciders see all. Others get not_found. */
  async get(actor: Actor, community: Community, approvalId: string): Promise<ApprovalView> {
    requireRead(actor, community);
    const { id } = parse(z.object({ id: recordId }), { id: approvalId });
    const approval = await this.store.community(community.id).access.approvals.getById(id);
    if (!approval || !(await this.maySee(actor, community, approval))) {
      throw new DomainError(
        'not_found',
        `No approval "${id}" of yours in "${community.slug}". Use the approval_id returned by the queued write.`,
      );
    }
    return approvalView(approval, community);
  }

  async list(
    actor: Actor,
    community: Community,
    input: { status?: string; cursor?: string | null; limit?: number } = {},
  ): Promise<{ approvals: ApprovalView[]; nextCursor: string | null }> {
    await requireDecider(this.store, actor, community);
    const data = parse(
      z.object({
        status: z.enum(APPROVAL_STATUSES).optional(),
        cursor: cursor.nullish(),
        limit: pageLimit(100, 20),
      }),
      input,
    );
    const listing = `approvals:${data.status ?? 'all'}`;
    const page = await this.store.community(community.id).access.approvals.list({
      status: data.status,
      after: decodeCursor(listing, data.cursor, CURSOR_SHAPES.byTime),
      limit: data.limit,
    });
    return {
      approvals: page.items.map((a) => approvalView(a, community)),
      nextCursor: page.next ? encodeCursor(listing, page.next) : null,
    };
  }

  // — deciding —

  async approve(actor: Actor, community: Community, approvalId: string): Promise<ApprovalView> {
    const approval = await this.pendingForDecision(actor, community, approvalId);
    const decider = authorOf(actor);
    const submitter = await this.submitterActor(approval, community);
    let events: ContentEvent[] = [];
    try {
      const applied = await this.store.transaction(async (tx) => {
        const approvals = tx.community(community.id).access.approvals;
        if (!(await approvals.decide(approval.id, 'approved', decider, null)))
          throw new AlreadyDecided(await approvals.getById(approval.id));
        if (!isWriteKind(approval.kind))
          throw new DomainError('invalid_argument', `Unknown write "${approval.kind}".`);
        // The stored payload goes through the same use case as a write applied at once, and its
        // submitter must still be someone who may write here (a person who left a private
        // community cannot be published by a moderator).
        requireWrite(submitter, community);
        const command = commandOf(approval.kind, approval.payload);
        const loaded = await loadCommand(tx, community, command);
        const deferred = deferredContent(tx, this.config);
        const result = asJson(
          await applyCommand(deferred.content, submitter, community, command, loaded),
        );
        await approvals.complete(approval.id, 'applied', result, null);
        events = deferred.events;
        const done = (await approvals.getById(approval.id))!;
        await recordWebhookEvent(tx, community.id, 'approval.decided', () => ({
          approval: approvalView(done, community),
        }));
        return done;
      });
      for (const e of events) this.events.emit(e);
      this.events.emit({
        type: 'approval.decided',
        communityId: community.id,
        approvalId: applied.id,
        kind: applied.kind,
        status: 'applied',
      });
      await this.audit.record(actor, {
        communityId: community.id,
        action: 'approval.approve',
        targets: { approval_id: applied.id, ...resultTargets(asWrittenContent(applied.result)) },
        outcome: 'ok',
      });
      return approvalView(applied, community);
    } catch (err) {
      if (!isDomainError(err) || err instanceof AlreadyDecided) {
        await this.audit.record(actor, {
          communityId: community.id,
          action: 'approval.approve',
          targets: { approval_id: approval.id },
          ...errorOutcome(err),
        });
        throw err;
      }
      // The write itself was refused (topic closed meanwhile, category gone, …): record it as failed.
      const failed = await this.decideRecorded(
        community,
        approval.id,
        'failed',
        decider,
        err.message,
      );
      this.events.emit({
        type: 'approval.decided',
        communityId: community.id,
        approvalId: failed.id,
        kind: failed.kind,
        status: 'failed',
      });
      await this.audit.record(actor, {
        communityId: community.id,
        action: 'approval.approve',
        targets: { approval_id: failed.id },
        outcome: 'error',
        errorCode: err.code,
      });
      return approvalView(failed, community);
    }
  }

  async reject(
    actor: Actor,
    community: Community,
    approvalId: string,
    reason: string,
  ): Promise<ApprovalView> {
    const approval = await this.pendingForDecision(actor, community, approvalId);
    const { reason: why } = parse(z.object({ reason: reasonField }), { reason });
    const rejected = await this.decideRecorded(
      community,
      approval.id,
      'rejected',
      authorOf(actor),
      why,
    );
    this.events.emit({
      type: 'approval.decided',
      communityId: community.id,
      approvalId: rejected.id,
      kind: rejected.kind,
      status: 'rejected',
    });
    await this.audit.record(actor, {
      communityId: community.id,
      action: 'approval.reject',
      targets: { approval_id: rejected.id },
      outcome: 'ok',
    });
    return approvalView(rejected, community);
  }

  /** pending → rejected|failed, with its approval.decided event in the same transaction. */
  private async decideRecorded(
    community: Community,
    id: string,
    to: 'rejected' | 'failed',
    decider: AuthorRef,
    reason: string,
  ): Promise<ApprovalRecord> {
    return this.store.transaction(async (tx) => {
      const approvals = tx.community(community.id).access.approvals;
      if (!(await approvals.decide(id, to, decider, reason)))
        throw new AlreadyDecided(await approvals.getById(id));
      const decided = (await approvals.getById(id))!;
      await recordWebhookEvent(tx, community.id, 'approval.decided', () => ({
        approval: approvalView(decided, community),
      }));
      return decided;
    });
  }

  private async pendingForDecision(
    actor: Actor,
    community: Community,
    approvalId: string,
  ): Promise<ApprovalRecord> {
    await requireDecider(this.store, actor, community);
    const { id } = parse(z.object({ id: recordId }), { id: approvalId });
    const approval = await this.store.community(community.id).access.approvals.getById(id);
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
    ) {
      throw new DomainError(
        'forbidden',
        'You submitted this write yourself; another moderator has to decide it.',
      );
    }
    return approval;
  }

  /** The write is applied as its submitter (who is named as author), not as the moderator. */
  private async submitterActor(approval: ApprovalRecord, community: Community): Promise<Actor> {
    const s = approval.submitter;
    if (s.kind === 'agent' && s.id)
      return { kind: 'agent', agentId: s.id, communityId: community.id, name: s.name };
    if (s.kind === 'person' && s.id) {
      const m = await this.store.community(community.id).access.members.get(s.id);
      const roles = m && isRole(m.role) ? { [community.id]: m.role } : {};
      // Written through a connected app: applied with the same label. Its scopes were checked when
      // the write was queued; the approval is the decision now.
      const client = s.via ? { client: { id: '', name: s.via, grantId: '', scopes: SCOPES } } : {};
      return { kind: 'person', personId: s.id, displayName: s.name, roles, ...client };
    }
    return systemActor(s.name);
  }

  private async maySee(
    actor: Actor,
    community: Community,
    approval: ApprovalRecord,
  ): Promise<boolean> {
    if (actor.kind === 'system') return true;
    if (actor.kind === 'agent') {
      return (
        actor.communityId === community.id &&
        (approval.submitter.id === actor.agentId ||
          (actor.scopes ?? []).includes('approval:decide'))
      );
    }
    if (actor.kind === 'person') {
      return (
        approval.submitter.id === actor.personId ||
        roleAtLeast(await roleOf(this.store, actor, community), 'moderator')
      );
    }
    return false;
  }
}
