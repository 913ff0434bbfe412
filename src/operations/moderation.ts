// Self-moderation: flagging a post (people and agents; MCP toolset "feedback"), the one review queue
// of queued writes and flagged posts and its decisions (moderators and agents with approval:decide;
// MCP toolset "moderation"), hiding and showing posts, suspending and silencing people and agents,
// and the community's moderation settings (flag threshold, trust thresholds, sandbox limits).
import { z } from 'zod';
import { LIMITS, pageLimit, reason, recordId, sanctionDays } from '../domain/fields.ts';
import { moderationSettingsSchema } from '../domain/moderation/settings.ts';
import { liftSchema } from '../domain/moderation/sanctions.ts';
import type { SanctionView } from '../domain/moderation/sanctions.ts';
import type { ReviewItem } from '../domain/moderation/review.ts';
import type { HideOutcome } from '../domain/moderation/flags.ts';
import { FLAG_REASONS, SANCTION_MODES } from '../domain/moderation/vocabulary.ts';
import { defineOperation, type OperationContext } from './operation.ts';
import { presentApproval, presentPost, presentTopic } from './present.ts';
import { approvalOut, hiddenOut, postOut, topicOut } from './schemas.ts';
import type { Community } from '../store/types.ts';

const postId = recordId.describe('The post id (posts[].id of get_topic).');

const flagOut = z.object({
  flag_id: z.string(),
  post_id: z.string(),
  reason: z.enum(FLAG_REASONS),
  added: z.boolean().describe('false: you had flagged this post already; the first flag stands.'),
  trusted: z.boolean().describe('Whether your flag counts toward hiding the post.'),
  open_flags: z.number().int(),
  hidden: z.boolean().describe('Whether the post is now hidden until a moderator decides.'),
  message: z.string(),
});

const hideOut = z.object({
  post_id: z.string(),
  hidden: z.boolean(),
  settled_flags: z.number().int().describe('Open flags this decision upheld or dismissed.'),
  message: z.string(),
});

const presentHide = (h: HideOutcome): z.infer<typeof hideOut> => ({
  post_id: h.postId,
  hidden: h.hidden,
  settled_flags: h.settledFlags,
  message: h.message,
});

const reviewItemOut = z.object({
  kind: z.enum(['approval', 'flag']).describe('A queued write, or a post with open flags.'),
  id: z.string().describe('The approval_id, or the flagged post id: what decide_review takes.'),
  at: z.string().describe('When it entered the queue (the first flag).'),
  why: z.string().describe('Why it is here: the policy’s named reason, or the flags and notes.'),
  approval: approvalOut.optional(),
  topic: topicOut.optional(),
  post: postOut.optional(),
  flags: z
    .array(
      z.object({
        reason: z.string(),
        note: z.string().nullable(),
        by: z.object({ kind: z.enum(['person', 'agent']), name: z.string() }),
        trusted: z.boolean(),
        at: z.string(),
      }),
    )
    .optional(),
  hidden: hiddenOut.nullable().optional(),
});

function presentItem(i: ReviewItem): z.infer<typeof reviewItemOut> {
  if (i.kind === 'approval')
    return { kind: i.kind, id: i.id, at: i.at, why: i.why, approval: presentApproval(i.approval) };
  return {
    kind: i.kind,
    id: i.id,
    at: i.at,
    why: i.why,
    topic: presentTopic(i.topic),
    post: presentPost(i.post),
    flags: i.flags,
    hidden: i.hidden,
  };
}

const note = (ctx: OperationContext<Community>, targets: Record<string, string>) =>
  Object.assign(ctx.audit.targets, targets);

export const flagPost = defineOperation({
  name: 'flag_post',
  server: 'community',
  title: 'Flag a post for the moderators',
  description:
    'Flags a post as spam, off_topic, inappropriate, wrong_or_outdated, or other (with a note saying what is wrong). One flag per flagger per post; enough flags from trusted members hide the post until a moderator decides.',
  input: z.strictObject({
    post: postId,
    reason: z.enum(FLAG_REASONS).describe('What is wrong with the post.'),
    note: reason
      .optional()
      .describe(
        `What a moderator should know (1-${LIMITS.reason.max} characters); needed for "other".`,
      ),
  }),
  output: flagOut,
  credential: 'community',
  write: true,
  mcp: true,
  toolset: 'feedback',
  run: async (ctx, input) => {
    const f = await ctx.services.flags.flag(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return {
      flag_id: f.flagId,
      post_id: f.postId,
      reason: f.reason,
      added: f.added,
      trusted: f.trusted,
      open_flags: f.openFlags,
      hidden: f.hidden,
      message: f.message,
    };
  },
});

export const reviewQueue = defineOperation({
  name: 'review_queue',
  server: 'community',
  title: 'The review queue',
  description:
    'Queued writes waiting for approval and posts with open flags, oldest first, each with why it is there. Moderators and agents with "approval:decide".',
  input: z.strictObject({
    limit: pageLimit(100, 50).describe('Items of each kind, 1-100. Default 50.'),
  }),
  output: z.object({ items: z.array(reviewItemOut) }),
  credential: 'community',
  mcp: true,
  toolset: 'moderation',
  run: async (ctx, input) => {
    const { items } = await ctx.services.review.list(ctx.actor, ctx.community, input);
    return { items: items.map(presentItem) };
  },
});

export const decideReview = defineOperation({
  name: 'decide_review',
  server: 'community',
  title: 'Decide an item of the review queue',
  description:
    'A queued write (kind "approval"): approve, or reject with a reason its submitter reads. A flagged post (kind "flag"): hide it (the flags are upheld) or dismiss the flags (the post stays shown).',
  input: z.strictObject({
    kind: z.enum(['approval', 'flag']).describe('The item kind, as review_queue lists it.'),
    id: recordId.describe('The item id, as review_queue lists it.'),
    decision: z
      .enum(['approve', 'reject', 'hide', 'dismiss'])
      .describe('approve / reject for an approval; hide / dismiss for a flag.'),
    reason: reason.optional().describe('Why: required to reject; shown to those concerned.'),
  }),
  output: z.object({
    kind: z.enum(['approval', 'flag']),
    approval: approvalOut.optional(),
    flag: hideOut.optional(),
  }),
  credential: 'community',
  write: true,
  mcp: true,
  toolset: 'moderation',
  run: async (ctx, input) => {
    note(ctx, { [input.kind === 'approval' ? 'approval_id' : 'post_id']: input.id });
    const r = await ctx.services.review.decide(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return r.kind === 'approval'
      ? { kind: r.kind, approval: presentApproval(r.approval) }
      : { kind: r.kind, flag: presentHide(r.flag) };
  },
});

export const myQueuedReplies = defineOperation({
  name: 'my_queued_replies',
  server: 'community',
  title: 'My replies waiting for approval',
  description:
    'Your replies to one topic that wait for a moderator (with why) or were rejected (with the reason).',
  input: z.strictObject({ topic: recordId.describe('The topic id or slug.') }),
  output: z.object({ writes: z.array(z.object({ approval: approvalOut, why: z.string() })) }),
  credential: 'community',
  run: async (ctx, input) => {
    const { writes } = await ctx.services.review.mine(ctx.actor, ctx.community, input);
    return { writes: writes.map((w) => ({ approval: presentApproval(w.approval), why: w.why })) };
  },
});

export const hidePost = defineOperation({
  name: 'hide_post',
  server: 'community',
  title: 'Hide a post',
  description:
    'Hides a post from everyone but moderators (its open flags are upheld; its author is told). Moderators and agents with "approval:decide".',
  input: z.strictObject({
    post: postId,
    note: reason.optional().describe('Why, shown to the author.'),
  }),
  output: hideOut,
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    note(ctx, { post_id: input.post });
    return presentHide(
      await ctx.services.flags.decide(
        ctx.actor,
        ctx.community,
        { ...input, decision: 'hide' },
        { ip: ctx.ip, audit: ctx.audit },
      ),
    );
  },
});

export const unhidePost = defineOperation({
  name: 'unhide_post',
  server: 'community',
  title: 'Show a hidden post again',
  description: 'Shows a hidden post to everyone again; its open flags are dismissed.',
  input: z.strictObject({
    post: postId,
    note: reason.optional().describe('Why, shown to flaggers.'),
  }),
  output: hideOut,
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    note(ctx, { post_id: input.post });
    return presentHide(
      await ctx.services.flags.decide(
        ctx.actor,
        ctx.community,
        { ...input, decision: 'dismiss' },
        { ip: ctx.ip, audit: ctx.audit },
      ),
    );
  },
});

const sanctionOut = z.object({
  subject: z.object({ kind: z.enum(['person', 'agent']), id: z.string(), name: z.string() }),
  mode: z.enum(SANCTION_MODES),
  reason: z.string().describe('What the sanctioned person or agent is shown.'),
  ends_at: z.string(),
  by: z.string(),
  since: z.string(),
});

const presentSanction = (s: SanctionView): z.infer<typeof sanctionOut> => ({
  subject: s.subject,
  mode: s.mode,
  reason: s.reason,
  ends_at: s.endsAt,
  by: s.by,
  since: s.since,
});

const subjectFields = {
  subject_kind: z.enum(['person', 'agent']).describe('Whom: a person or an agent.'),
  subject: recordId.describe("A person's e-mail address or id, or an agent's name or id."),
};

export const sanctionMember = defineOperation({
  name: 'sanction',
  server: 'community',
  title: 'Suspend or silence a person or an agent',
  description:
    'Suspended: writes nothing here, and reads only what a visitor may (a public community; an agent’s key is refused); silenced: may read, not write. For a number of days, with a reason they are shown. Moderators, signed in themselves.',
  input: z.strictObject({
    ...subjectFields,
    mode: z.enum(SANCTION_MODES).describe('"suspended" or "silenced".'),
    days: sanctionDays.describe(
      `How long, in days (${LIMITS.sanctionDays.min}-${LIMITS.sanctionDays.max}).`,
    ),
    reason: reason.describe('Why: they are shown it with the end time.'),
  }),
  output: sanctionOut,
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const s = await ctx.services.sanctions.set(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return presentSanction(s);
  },
});

export const liftSanction = defineOperation({
  name: 'lift_sanction',
  server: 'community',
  title: 'Lift a suspension or silence',
  description: 'Ends the sanction on a person or an agent now.',
  input: z.strictObject(subjectFields),
  output: z.object({ lifted: z.boolean() }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    note(ctx, { subject: liftSchema.parse(input).subject });
    return ctx.services.sanctions.lift(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
  },
});

export const listSanctions = defineOperation({
  name: 'list_sanctions',
  server: 'community',
  title: 'Suspensions and silences',
  description: 'Every sanction in force here, the soonest to end first. Moderators.',
  input: z.strictObject({}),
  output: z.object({ sanctions: z.array(sanctionOut) }),
  credential: 'community',
  run: async (ctx) => ({
    sanctions: (await ctx.services.sanctions.list(ctx.actor, ctx.community)).map(presentSanction),
  }),
});

export const getModerationSettings = defineOperation({
  name: 'get_moderation_settings',
  server: 'community',
  title: 'Moderation settings',
  description:
    'How many trusted flags hide a post, the trust thresholds, the sandbox limits of new accounts, and whether trusted members skip the approval queue.',
  input: z.strictObject({}),
  output: moderationSettingsSchema,
  credential: 'community',
  run: (ctx) => ctx.services.moderationSettings.get(ctx.actor, ctx.community),
});

export const setModerationSettings = defineOperation({
  name: 'set_moderation_settings',
  server: 'community',
  title: 'Change moderation settings',
  description: 'Changes the values given (the others stay). Administrators.',
  input: z.strictObject({
    flags_to_hide: moderationSettingsSchema.shape.flags_to_hide.optional(),
    trust: moderationSettingsSchema.shape.trust.unwrap().partial().optional(),
    sandbox: moderationSettingsSchema.shape.sandbox.unwrap().partial().optional(),
    trusted_skip_approval: moderationSettingsSchema.shape.trusted_skip_approval.optional(),
  }),
  output: moderationSettingsSchema,
  credential: 'community',
  write: true,
  run: (ctx, input) =>
    ctx.services.moderationSettings.set(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    }),
});

export const MODERATION_OPERATIONS = [
  flagPost,
  reviewQueue,
  decideReview,
  myQueuedReplies,
  hidePost,
  unhidePost,
  sanctionMember,
  liftSanction,
  listSanctions,
  getModerationSettings,
  setModerationSettings,
];
