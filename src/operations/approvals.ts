// The approval queue, for the people and agents who decide it (moderators, agents with
// approval:decide) and for administrators who set the policy per write kind. Each decision is
// applied exactly once, even when two deciders act at the same moment: the loser is told why.
import { z } from 'zod';
import { cursor, LIMITS, pageLimit, reason, recordId } from '../domain/fields.ts';
import { APPROVAL_STATUSES, POLICY_MODES, WRITE_KINDS } from '../domain/vocabulary.ts';
import { defineOperation, type OperationContext } from './operation.ts';
import { presentApproval } from './present.ts';
import { approvalOut } from './schemas.ts';
import type { Community } from '../store/types.ts';

function note(ctx: OperationContext<Community>, id: string) {
  ctx.audit.targets.approval_id = id;
}

export const listApprovals = defineOperation({
  name: 'list_approvals',
  server: 'community',
  title: 'List the approval queue',
  description:
    'Queued writes of this community, oldest first, by status (default pending). Moderators and agents with "approval:decide".',
  input: z.strictObject({
    status: z
      .enum(APPROVAL_STATUSES)
      .default('pending')
      .describe('Which approvals: pending (default), approved, rejected, applied or failed.'),
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    limit: pageLimit(100, 20).describe('Approvals per page, 1-100. Default 20.'),
  }),
  output: z.object({ approvals: z.array(approvalOut), next_cursor: z.string().nullable() }),
  credential: 'community',
  run: async (ctx, input) => {
    const page = await ctx.services.approvals.list(ctx.actor, ctx.community, input);
    return { approvals: page.approvals.map(presentApproval), next_cursor: page.nextCursor };
  },
});

export const approveWrite = defineOperation({
  name: 'approve',
  server: 'community',
  title: 'Approve a queued write',
  description:
    'Publishes a queued write as its submitter. Exactly one decision wins; a second decider gets a conflict saying who decided.',
  input: z.strictObject({ approval_id: recordId.describe('The approval to publish.') }),
  output: approvalOut,
  credential: 'community',
  write: true,
  run: async (ctx, { approval_id }) => {
    note(ctx, approval_id);
    return presentApproval(
      await ctx.services.approvals.approve(ctx.actor, ctx.community, approval_id),
    );
  },
});

export const rejectWrite = defineOperation({
  name: 'reject',
  server: 'community',
  title: 'Reject a queued write',
  description: 'Refuses a queued write with a reason its submitter reads. Nothing is published.',
  input: z.strictObject({
    approval_id: recordId.describe('The approval to refuse.'),
    reason: reason.describe(
      `Why, so the submitter can fix it (1-${LIMITS.reason.max} characters).`,
    ),
  }),
  output: approvalOut,
  credential: 'community',
  write: true,
  run: async (ctx, { approval_id, reason: why }) => {
    note(ctx, approval_id);
    return presentApproval(
      await ctx.services.approvals.reject(ctx.actor, ctx.community, approval_id, why),
    );
  },
});

const policies = z.object(
  Object.fromEntries(WRITE_KINDS.map((k) => [k, z.enum(POLICY_MODES)])) as Record<
    (typeof WRITE_KINDS)[number],
    z.ZodEnum<{ auto: 'auto'; approval: 'approval' }>
  >,
);

export const getPolicies = defineOperation({
  name: 'get_approval_policies',
  server: 'community',
  title: 'Approval policies',
  description:
    'For each kind of write, whether it is published at once ("auto") or queued for a moderator ("approval").',
  input: z.strictObject({}),
  output: policies,
  credential: 'community',
  run: (ctx) => ctx.services.approvals.getPolicies(ctx.actor, ctx.community),
});

export const setPolicy = defineOperation({
  name: 'set_approval_policy',
  server: 'community',
  title: 'Set an approval policy',
  description:
    'Whether one kind of write by agents and members is published at once or queued. Administrators only; moderators and trusted agents always publish at once.',
  input: z.strictObject({
    kind: z.enum(WRITE_KINDS).describe('The kind of write.'),
    mode: z
      .enum(POLICY_MODES)
      .describe('"auto": published at once; "approval": queued for a moderator.'),
  }),
  output: policies,
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.approvals.setPolicy(ctx.actor, ctx.community, input);
    return ctx.services.approvals.getPolicies(ctx.actor, ctx.community);
  },
});

export const APPROVAL_OPERATIONS = [
  listApprovals,
  approveWrite,
  rejectWrite,
  getPolicies,
  setPolicy,
];
