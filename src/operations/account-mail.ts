// Account links by e-mail, on the network: ask for a password reset (the same answer whether or not
// the address has an account), set a new password from the mailed link, confirm an address,
// ask for a new confirmation link, change the sign-in address (confirmed at the new one), and turn
// a kind of notification mail off from its one-click link. Limited per address and per client
// address; REST and the web offer these, MCP does not.
import { z } from 'zod';
import { email, LIMITS, password } from '../domain/fields.ts';
import { defineOperation } from './operation.ts';

const token = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .describe('The token of the link in the mail.');
const sentTo = z.object({ email: z.string().describe('The address concerned (lower-case).') });

export const requestPasswordReset = defineOperation({
  name: 'request_password_reset',
  server: 'network',
  title: 'Ask for a password reset link',
  description:
    'Mails a single-use link (valid one hour) to choose a new password, if the address has an account. The answer is the same either way, so nobody learns which addresses are registered.',
  input: z.strictObject({ email: email.describe('The address you sign in with.') }),
  output: sentTo,
  credential: 'none',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.rateLimits.checkAccountMail(ctx.ip, input.email);
    const site = ctx.site ? { site: ctx.site } : {};
    return ctx.services.accountLinks.requestPasswordReset(
      ctx.actor,
      { ...input, ...site },
      {
        ip: ctx.ip,
        audit: ctx.audit,
      },
    );
  },
});

export const resetPassword = defineOperation({
  name: 'reset_password',
  server: 'network',
  title: 'Choose a new password from a reset link',
  description:
    'Spends the reset link (once) and sets the new password; every session of the account ends. Sign in with the new password afterwards.',
  input: z.strictObject({
    token,
    password: password.describe(`The new password, at least ${LIMITS.password.min} characters.`),
  }),
  output: sentTo,
  credential: 'none',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.rateLimits.checkAccountMail(ctx.ip);
    return ctx.services.accountLinks.resetPassword(ctx.actor, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
  },
});

export const verifyEmail = defineOperation({
  name: 'verify_email',
  server: 'network',
  title: 'Confirm your e-mail address',
  description: 'Spends the confirmation link mailed at sign-up (once): the address is verified.',
  input: z.strictObject({ token }),
  output: sentTo,
  credential: 'none',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.rateLimits.checkAccountMail(ctx.ip);
    return ctx.services.accountLinks.verifyEmail(ctx.actor, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
  },
});

export const resendVerification = defineOperation({
  name: 'resend_verification',
  server: 'network',
  title: 'Send a new confirmation link',
  description:
    'Mails a new link to confirm your address (earlier links keep working until they expire).',
  input: z.strictObject({}),
  output: sentTo,
  credential: 'user',
  write: true,
  run: async (ctx) => {
    await ctx.services.rateLimits.checkAccountMail(
      ctx.ip,
      ctx.actor.kind === 'person' ? ctx.actor.personId : undefined,
    );
    return ctx.services.accountLinks.resendVerification(
      ctx.actor,
      { ip: ctx.ip, audit: ctx.audit },
      ctx.site,
    );
  },
});

export const changeEmail = defineOperation({
  name: 'change_email',
  server: 'network',
  title: 'Change your e-mail address',
  description:
    'Mails a confirmation link to the new address (valid a day); the change happens when it is opened, and the old address is told.',
  input: z.strictObject({
    new_email: email.describe('The address to sign in with from now on.'),
    current_password: z
      .string()
      .max(LIMITS.password.max, `must be at most ${LIMITS.password.max} characters`)
      .describe('Your password, to prove it is you.'),
  }),
  output: sentTo,
  credential: 'user',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.rateLimits.checkAccountMail(ctx.ip, input.new_email);
    return ctx.services.accountLinks.requestEmailChange(ctx.actor, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
  },
});

export const confirmEmailChange = defineOperation({
  name: 'confirm_email_change',
  server: 'network',
  title: 'Confirm a new e-mail address',
  description: 'Spends the link mailed to the new address (once): the account signs in with it.',
  input: z.strictObject({ token }),
  output: sentTo,
  credential: 'none',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.rateLimits.checkAccountMail(ctx.ip);
    return ctx.services.accountLinks.confirmEmailChange(ctx.actor, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
  },
});

export const unsubscribeMail = defineOperation({
  name: 'unsubscribe_mail',
  server: 'network',
  title: 'Turn a kind of notification mail off',
  description:
    "The one-click link of a notification mail's List-Unsubscribe header (its p, k and s parameters, as given).",
  input: z.strictObject({
    p: z.string().max(100).describe('The person, as the link gives it.'),
    k: z.string().max(100).describe('The kind of mail, as the link gives it.'),
    s: z.string().max(100).describe('The link signature.'),
  }),
  output: z.object({
    unsubscribed: z.boolean().describe('False when the link is not one Hamlet signed.'),
    kind: z.string(),
  }),
  credential: 'none',
  write: true,
  run: async (ctx, input) => ({
    unsubscribed: await ctx.services.mail.unsubscribe(input),
    kind: input.k,
  }),
});

export const myEmail = defineOperation({
  name: 'my_email',
  server: 'network',
  title: 'Your e-mail address',
  description:
    'The address you sign in with, whether you confirmed it, and whether this Hamlet sends mail.',
  input: z.strictObject({}),
  output: z.object({
    email: z.string(),
    verified: z.boolean(),
    mail_enabled: z.boolean().describe('False: this Hamlet sends no mail (no links can arrive).'),
    mail_off: z
      .object({ hard_bounces: z.number(), since: z.string(), reason: z.string().nullable() })
      .nullable()
      .describe(
        'Set when notification mail to the address stopped after hard bounces; confirming the address again turns it back on.',
      ),
  }),
  credential: 'user',
  run: async (ctx) => {
    const me = await ctx.services.accountLinks.myEmail(ctx.actor);
    return {
      email: me.email,
      verified: me.verified,
      mail_enabled: me.mail,
      mail_off: me.bounced
        ? {
            hard_bounces: me.bounced.hardBounces,
            since: me.bounced.since,
            reason: me.bounced.reason,
          }
        : null,
    };
  },
});

export const ACCOUNT_MAIL_OPERATIONS = [
  myEmail,
  requestPasswordReset,
  resetPassword,
  verifyEmail,
  resendVerification,
  changeEmail,
  confirmEmailChange,
  unsubscribeMail,
];
