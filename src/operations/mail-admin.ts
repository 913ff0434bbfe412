// Mail, for a community's administrators: the queue of the community's mails (sent, pending, failed
// and why; whether mail is on at all), sending an unsent mail again, sending a member a password
// reset link, and whether unverified accounts may post. REST and the admin pages offer these.
import { z } from 'zod';
import { cursor, email, recordId } from '../domain/fields.ts';
import type { MailRecord } from '../store/mail.ts';
import { defineOperation } from './operation.ts';

const mailOut = z.object({
  id: z.string(),
  message_id: z.string().describe('The Message-ID it is sent with (the same on every attempt).'),
  to: z.string(),
  kind: z.string(),
  subject: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable().describe('Why the last attempt failed.'),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});

function presentMail(m: MailRecord): z.input<typeof mailOut> {
  return {
    id: m.id,
    message_id: m.messageId,
    to: m.to,
    kind: m.kind,
    subject: m.subject,
    status: m.status,
    attempts: m.attempts,
    next_attempt_at: m.nextAttemptAt === null ? null : new Date(m.nextAttemptAt).toISOString(),
    last_error: m.lastError,
    created_at: m.createdAt,
    sent_at: m.sentAt,
  };
}

export const listMailQueue = defineOperation({
  name: 'list_mail_queue',
  server: 'community',
  title: 'The mail queue',
  description:
    "This community's outbound mails, newest first: sent, pending (with the next attempt) or failed (with why), and whether this Hamlet sends mail at all.",
  input: z.strictObject({
    status: z.enum(['pending', 'sent', 'failed']).optional().describe('Only mails in this state.'),
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
  }),
  output: z.object({
    mail_enabled: z.boolean(),
    transport: z.string().describe('Where mail goes (no password), or why none is sent.'),
    from: z.string(),
    unverified_may_post: z
      .boolean()
      .describe('Whether accounts that did not confirm their address may post here.'),
    counts: z.object({ pending: z.number(), sent: z.number(), failed: z.number() }),
    mails: z.array(mailOut),
    next_cursor: z.string().nullable(),
  }),
  credential: 'community',
  run: async (ctx, input) => {
    const q = await ctx.services.mail.listQueue(ctx.actor, ctx.community, input);
    return {
      mail_enabled: q.state.enabled,
      transport: q.state.transport,
      from: q.state.from,
      unverified_may_post: await ctx.services.accountLinks.unverifiedMayPost(ctx.community),
      counts: q.counts,
      mails: q.mails.map(presentMail),
      next_cursor: q.nextCursor,
    };
  },
});

export const retryMail = defineOperation({
  name: 'retry_mail',
  server: 'community',
  title: 'Send a mail again',
  description: 'Makes a failed or pending mail due now (it keeps its Message-ID).',
  input: z.strictObject({ id: recordId.describe('The mail id from the queue.') }),
  output: z.object({ queued: z.literal(true) }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.mail.retry(ctx.actor, ctx.community, input.id, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return { queued: true as const };
  },
});

export const sendPasswordReset = defineOperation({
  name: 'send_password_reset',
  server: 'community',
  title: 'Send a member a password reset link',
  description:
    'Mails the member a single-use link (valid one hour) to choose a new password. Administrators only.',
  input: z.strictObject({ email: email.describe("The member's e-mail address.") }),
  output: z.object({ email: z.string() }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.rateLimits.checkAccountMail(ctx.ip, input.email);
    return ctx.services.accountLinks.sendPasswordReset(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
  },
});

export const setUnverifiedPosting = defineOperation({
  name: 'set_unverified_posting',
  server: 'community',
  title: 'Whether unverified accounts may post',
  description:
    'By default a person must confirm their e-mail address before posting here (when this Hamlet sends mail). Administrators only.',
  input: z.strictObject({
    allowed: z.boolean().describe('True: accounts that did not confirm their address may post.'),
  }),
  output: z.object({ allowed: z.boolean() }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => ({
    allowed: await ctx.services.accountLinks.setUnverifiedPosting(
      ctx.actor,
      ctx.community,
      input.allowed,
      { ip: ctx.ip, audit: ctx.audit },
    ),
  }),
});

export const MAIL_ADMIN_OPERATIONS = [
  listMailQueue,
  retryMail,
  sendPasswordReset,
  setUnverifiedPosting,
];
