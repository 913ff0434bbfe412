// Account links sent by e-mail: address verification (sent at sign-up; accounts the operator makes
// count as verified), password reset (asked for by address with the same answer whether or not it
// has an account, or sent by a community's administrator to a member), and e-mail change
// (confirmed at the new address, told to the old). Each link carries a random single-use token of
// which only the hash is stored, spent by one conditional update; a reset expires after an hour and
// ends every session of the account. Each change is a use case of the one write runner (a file
// beside this one), its mails queued in its transaction (./link-mails.ts: what they share).
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community, Person } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import type { Clock } from './auth.ts';
import { emailChangeConfirm } from './email-change-confirm.ts';
import { emailChangeRequest } from './email-change-request.ts';
import { emailVerify } from './email-verify.ts';
import { personWithAddress, type LinkDeps, type MailSite } from './link-mails.ts';
import { passwordReset } from './password-reset.ts';
import { passwordResetRequest } from './password-reset-request.ts';
import { passwordResetSend } from './password-reset-send.ts';
import { unverifiedPostingSet } from './unverified-posting-set.ts';
import { verificationResend } from './verification-resend.ts';

export { EMAIL_CHANGE_TTL_MS, RESET_TTL_MS, VERIFY_TTL_MS } from './link-mails.ts';

export class AccountLinks {
  /** What the link writes work with (./link-mails.ts). */
  readonly deps: LinkDeps;
  private readonly writes: ReturnType<typeof linkWrites>;

  constructor(
    private readonly store: Store,
    private readonly mailer: Mailer,
    clock: Clock,
    private readonly runner: WriteRunner,
    private readonly logger?: Logger,
  ) {
    this.deps = { mailer, clock, logger };
    this.writes = linkWrites(this.deps);
  }

  /** Whether the person's current address is the one they verified. */
  async isVerified(person: Pick<Person, 'id' | 'email'>): Promise<boolean> {
    if (!person.email) return false;
    return (await this.store.accountTokens.verifiedEmail(person.id)) === person.email;
  }

  /**
   * The community's rule for unverified accounts, for one person about to post: refused with what
   * to do while their address is not confirmed, unless the community lets them (default: it does
   * not). With mail off no address can be confirmed, so the rule does not apply.
   */
  async requireMayPost(personId: string, community: Community): Promise<void> {
    if (!this.mailer.enabled) return;
    if (await this.store.accountTokens.unverifiedMayPost(community.id)) return;
    const person = await this.store.people.getById(personId);
    if (!person || (await this.isVerified(person))) return;
    throw new DomainError(
      'forbidden',
      `Confirm your e-mail address before posting in "${community.slug}": open the link we mailed to ${person.email ?? 'you'}, or ask for a new one on your account page (/account). Meanwhile you can read and sign in as usual.`,
    );
  }

  /** An administrator lets unverified accounts post in their community, or not. */
  async setUnverifiedPosting(
    actor: Actor,
    community: Community,
    allowed: boolean,
    options?: RunOptions,
  ): Promise<boolean> {
    return this.runner.run(unverifiedPostingSet, actor, community, { allowed }, options);
  }

  /** Whether the community lets unverified accounts post. */
  async unverifiedMayPost(community: Community): Promise<boolean> {
    return (await this.store.accountTokens.unverifiedMayPost(community.id)) ?? false;
  }

  /** The signed-in person's address, whether it is confirmed, and whether mail is on. */
  async myEmail(actor: Actor): Promise<{
    email: string;
    verified: boolean;
    mail: boolean;
    /** Set when notification mail to the address is off after hard bounces. */
    bounced: { hardBounces: number; since: string; reason: string | null } | null;
  }> {
    if (actor.kind !== 'person')
      throw new DomainError('unauthorized', 'Sign in to see your address.');
    const person = await personWithAddress(this.store, actor.personId);
    const bounce = await this.store.mail.bounceState(person.email!);
    return {
      email: person.email!,
      verified: await this.isVerified(person),
      mail: this.mailer.enabled,
      bounced: bounce?.disabledAt
        ? { hardBounces: bounce.hardBounces, since: bounce.disabledAt, reason: bounce.lastReason }
        : null,
    };
  }

  /** A signed-in person asks for a new verification link. */
  async resendVerification(
    actor: Actor,
    options?: RunOptions,
    site?: MailSite,
  ): Promise<{ email: string }> {
    return this.runner.run(this.writes.resend, actor, null, { site }, options);
  }

  /** Spends a verification link; the address is verified if it is still the account's. */
  async verifyEmail(
    actor: Actor,
    input: { token: unknown },
    options?: RunOptions,
  ): Promise<{ email: string }> {
    return this.runner.run(this.writes.verify, actor, null, input, options);
  }

  /**
   * Asks for a reset link for `email`. The answer is the same whether or not the address has an
   * account (nobody learns which have one): only an existing account gets the mail.
   */
  async requestPasswordReset(
    actor: Actor,
    input: { email: unknown; site?: MailSite },
    options?: RunOptions,
  ): Promise<{ email: string }> {
    return this.runner.run(this.writes.resetRequest, actor, null, input, options);
  }

  /** An administrator sends a reset link to a member of their community. */
  async sendPasswordReset(
    actor: Actor,
    community: Community,
    input: { email: unknown },
    options?: RunOptions,
  ): Promise<{ email: string }> {
    const sent = await this.runner.run(this.writes.resetSend, actor, community, input, options);
    this.logger?.info({ event: 'password.reset_sent', personId: sent.personId }, 'reset link sent');
    return { email: sent.email };
  }

  /** Spends a reset link: the new password is set, every session ends, the address counts as verified. */
  async resetPassword(
    actor: Actor,
    input: { token: unknown; password: unknown },
    options?: RunOptions,
  ): Promise<{ email: string }> {
    const reset = await this.runner.run(this.writes.reset, actor, null, input, options);
    this.logger?.info({ event: 'password.reset' }, 'password reset by e-mail link');
    return reset;
  }

  /**
   * A signed-in person asks to sign in with another address, proving their password: a link goes
   * to the new address. An address that has an account gets the address-taken mail instead (the
   * answer is the same).
   */
  async requestEmailChange(
    actor: Actor,
    input: { new_email: unknown; current_password: unknown },
    options?: RunOptions,
  ): Promise<{ email: string }> {
    return this.runner.run(this.writes.changeRequest, actor, null, input, options);
  }

  /** Spends an e-mail change link: the account signs in with the new address, the old one is told. */
  async confirmEmailChange(
    actor: Actor,
    input: { token: unknown },
    options?: RunOptions,
  ): Promise<{ email: string }> {
    const changed = await this.runner.run(this.writes.changeConfirm, actor, null, input, options);
    this.logger?.info({ event: 'email.changed', personId: changed.personId }, 'address changed');
    return { email: changed.email };
  }
}

/** The use cases of the link writes, over their dependencies. */
function linkWrites(deps: LinkDeps) {
  return {
    resend: verificationResend(deps),
    verify: emailVerify(deps),
    resetRequest: passwordResetRequest(deps),
    resetSend: passwordResetSend(deps),
    reset: passwordReset(deps),
    changeRequest: emailChangeRequest(deps),
    changeConfirm: emailChangeConfirm(deps),
  };
}
