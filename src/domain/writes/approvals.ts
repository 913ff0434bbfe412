// The approval queue: per-community policies per write kind, and the decisions. Approving applies
// the stored write exactly once: the pending → approved claim is a conditional UPDATE in the same
// transaction as the write, so of concurrent approvers one applies and the others get a conflict.
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { ApprovalRecord } from '../../store/identity.ts';
import type { Actor } from '../actor.ts';
import {
  requireCommunityAdmin,
  requireDecider,
  requireRead,
  roleAtLeast,
  roleOf,
} from '../authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../cursor.ts';
import { DomainError } from '../errors.ts';
import { cursor, pageLimit, recordId } from '../fields.ts';
import { errorOutcome, type AuditService } from '../identity/audit.ts';
import { parse } from '../validate.ts';
import {
  APPROVAL_STATUSES,
  POLICY_MODES,
  WRITE_KINDS,
  type PolicyMode,
  type WriteKind,
} from '../vocabulary.ts';
import {
  AlreadyDecided,
  approvalApprove,
  approvalFail,
  approvalReject,
  StoredWriteRefused,
} from './approval-decide.ts';
import { approvalView, type ApprovalView } from './approval-view.ts';
import type { CallAudit, RunOptions } from './runner.ts';
import type { WriteService } from './write-service.ts';

export { AlreadyDecided, approvalView, type ApprovalView };

export class ApprovalService {
  constructor(
    private readonly store: Store,
    /** The one runner and the content writes by kind (approving applies a stored write through them). */
    private readonly writes: WriteService,
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

  /** Applies a queued write as its submitter (./approval-decide.ts); a refused write is recorded failed. */
  async approve(
    actor: Actor,
    community: Community,
    approvalId: string,
    options: RunOptions = {},
  ): Promise<ApprovalView> {
    const { runner, kinds } = this.writes;
    // The call's audit entry is written by whichever run ends it (the approval, or its failure).
    const quiet: CallAudit = options.audit ?? { communityId: community.id, targets: {} };
    try {
      const applied = await runner.run(
        approvalApprove(kinds),
        actor,
        community,
        { id: approvalId },
        {
          ...options,
          audit: quiet,
        },
      );
      if (!options.audit)
        await this.audit.record(actor, {
          communityId: community.id,
          action: 'approval.approve',
          targets: quiet.targets,
          outcome: 'ok',
          ip: options.ip,
        });
      return approvalView(applied, community);
    } catch (err) {
      // The write itself was refused in its rows (topic closed meanwhile, …): recorded failed.
      if (err instanceof StoredWriteRefused) {
        const { message: reason, code } = err.refusal;
        const failed = await runner.run(
          approvalFail,
          actor,
          community,
          { id: approvalId, reason, code },
          options,
        );
        return approvalView(failed, community);
      }
      if (!options.audit)
        await this.audit.record(actor, {
          communityId: community.id,
          action: 'approval.approve',
          targets: { approval_id: approvalId },
          ip: options.ip,
          ...errorOutcome(err),
        });
      throw err;
    }
  }

  async reject(
    actor: Actor,
    community: Community,
    approvalId: string,
    reason: string,
    options: RunOptions = {},
  ): Promise<ApprovalView> {
    const rejected = await this.writes.runner.run(
      approvalReject,
      actor,
      community,
      { id: approvalId, reason },
      options,
    );
    return approvalView(rejected, community);
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
