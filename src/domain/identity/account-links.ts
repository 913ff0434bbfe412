// Account links sent by e-mail: address verification (sent at sign-up; accounts the operator makes
// count as verified), password reset (asked for by address with the same answer whether or not it
// has an account, or sent by a community's administrator to a member), and e-mail change
// (confirmed at the new address, told to the old). Each link carries a random single-use token of
// which only the hash is stored, spent by one conditional update; a reset expires after an hour and
// ends every session of the account. Mails are queued in the transaction of the change they belong to.
import { z } from 'zod';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community, Person } from '../../store/types.ts';
import { UniqueViolation } from '../../store/errors.ts';
import type { Actor } from '../actor.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { email as emailSchema, LIMITS, password as passwordSchema } from '../fields.ts';
import { parse } from '../validate.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  emailChangedMail,
  emailChangeMail,
  resetMail,
  signUpExistsMail,
  verifyMail,
  type AccountMail,
} from '../mail/account-mails.ts';
import type { Clock } from './auth.ts';
import { hashPassword, randomBase62, sha256Hex, verifyPassword } from './secrets.ts';

export const RESET_TTL_MS = 60 * 60_000;
export const VERIFY_TTL_MS = 48 * 3_600_000;
export const EMAIL_CHANGE_TTL_MS = 24 * 3_600_000;

type Purpose = 'verify' | 'reset' | 'email_change';

const tokenSchema = z.string().trim().min(20).max(100);

export class AccountLinks {
  constructor(
    private readonly store: Store,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

  private get site(): string {
    return new URL(this.mailer.settings.origin).host;
  }

  /** Inside sign-up's transaction: the new account's verification mail. */
  async queueVerification(tx: Store, person: Person, communityId?: string): Promise<void> {
    if (!this.mailer.enabled || !person.email) return;
    const token = await this.newToken(tx, person.id, 'verify', person.email, VERIFY_TTL_MS);
    const url = this.mailer.link(`/email/verify?token=${token}`);
    await this.send(tx, person, verifyMail(this.site, url, VERIFY_TTL_MS / 3_600_000), communityId);
  }

  /** Sign-up with an address that has an account: its owner is told, nothing else changes. */
  async queueSignUpExists(email: string): Promise<void> {
    if (!this.mailer.enabled) return;
    await this.store.transaction(async (tx) => {
      const person = await tx.people.getByEmail(email);
      if (!person) return;
      await this.send(
        tx,
        person,
        signUpExistsMail(
          this.site,
          this.mailer.link('/signin'),
          this.mailer.link('/password/forgot'),
        ),
      );
    });
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
  ): Promise<boolean> {
    await requireCommunityAdmin(this.store, actor, community, 'change who may post');
    await this.store.accountTokens.setUnverifiedMayPost(community.id, allowed);
    return allowed;
  }

  /** Whether the community lets unverified accounts post. */
  async unverifiedMayPost(community: Community): Promise<boolean> {
    return (await this.store.accountTokens.unverifiedMayPost(community.id)) ?? false;
  }

  /** The operator's accounts count as verified. */
  async markVerified(person: Person): Promise<void> {
    if (person.email) await this.store.accountTokens.markVerified(person.id, person.email);
  }

  /** The signed-in person's address, whether it is confirmed, and whether mail is on. */
  async myEmail(actor: Actor): Promise<{
    email: string;
    verified: boolean;
    mail: boolean;
    /** Set when notification mail to the address is off after hard bounces. */
    bounced: { hardBounces: number; since: string; reason: string | null } | null;
  }> {
    const person = await this.personOf(actor, 'see your address');
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
  async resendVerification(actor: Actor): Promise<{ email: string }> {
    const person = await this.personOf(actor, 'confirm your address');
    this.requireMail();
    const bounced = (await this.store.mail.bounceState(person.email!))?.disabledAt;
    if (!bounced && (await this.isVerified(person)))
      throw new DomainError('conflict', `${person.email} is already confirmed.`);
    await this.store.transaction((tx) => this.queueVerification(tx, person));
    return { email: person.email! };
  }

  /** Spends a verification link; the address is verified if it is still the account's. */
  async verifyEmail(input: { token: unknown }): Promise<{ email: string }> {
    const token = this.tokenOf(input.token);
    const spent = await this.store.accountTokens.consume(sha256Hex(token), 'verify', this.now());
    const person = spent && (await this.store.people.getById(spent.personId));
    if (!spent || !person || person.email !== spent.email)
      throw this.deadLink('confirmation', 'Sign in and ask for a new one on your account page.');
    await this.store.accountTokens.markVerified(person.id, spent.email);
    // Confirmed again: an address that bounced reads its mail now, so mail to it is on again.
    await this.store.mail.clearBounces(spent.email);
    this.logger?.info({ event: 'email.verified', personId: person.id }, 'address verified');
    return { email: spent.email };
  }

  /**
   * Asks for a reset link for `email`. The answer is the same whether or not the address has an
   * account (nobody learns which have one): only an existing account gets the mail.
   */
  async requestPasswordReset(input: { email: unknown }): Promise<{ email: string }> {
    const { email } = parse(z.object({ email: emailSchema }), input);
    this.requireMail();
    await this.store.transaction(async (tx) => {
      const person = await tx.people.getByEmail(email);
      if (person) await this.queueReset(tx, person);
    });
    return { email };
  }

  /** An administrator sends a reset link to a member of their community. */
  async sendPasswordReset(
    actor: Actor,
    community: Community,
    input: { email: unknown },
  ): Promise<{ email: string }> {
    await requireCommunityAdmin(
      this.store,
      actor,
      community,
      'send a member a password reset link',
    );
    const { email } = parse(z.object({ email: emailSchema }), input);
    this.requireMail();
    const person = await this.store.people.getByEmail(email);
    const member =
      person && (await this.store.community(community.id).access.members.get(person.id));
    if (!person || !member)
      throw new DomainError(
        'not_found',
        `No member of "${community.slug}" has the e-mail "${email}". Check the address on the members page.`,
      );
    await this.store.transaction((tx) => this.queueReset(tx, person, community.id));
    this.logger?.info({ event: 'password.reset_sent', personId: person.id }, 'reset link sent');
    return { email };
  }

  /** Spends a reset link: the new password is set, every session ends, the address counts as verified. */
  async resetPassword(input: { token: unknown; password: unknown }): Promise<{ email: string }> {
    const token = this.tokenOf(input.token);
    const { password } = parse(z.object({ password: passwordSchema }), {
      password: input.password,
    });
    const hash = await hashPassword(password);
    const email = await this.store.transaction(async (tx) => {
      const spent = await tx.accountTokens.consume(sha256Hex(token), 'reset', this.now());
      const person = spent && (await tx.people.getById(spent.personId));
      if (!spent || !person || person.email !== spent.email)
        throw this.deadLink('reset', 'Ask for a new one at /password/forgot.');
      await tx.identity.credentials.setPasswordHash(person.id, hash);
      await tx.identity.credentials.revokeSessionsOf(person.id, this.clock().toISOString());
      await tx.accountTokens.revokeAll(person.id, 'reset', this.now());
      await tx.accountTokens.markVerified(person.id, spent.email);
      return spent.email;
    });
    this.logger?.info({ event: 'password.reset' }, 'password reset by e-mail link');
    return { email };
  }

  /**
   * A signed-in person asks to sign in with another address, proving their password: a link goes
   * to the new address. An address that has an account gets the sign-up-exists mail instead (the
   * answer is the same).
   */
  async requestEmailChange(
    actor: Actor,
    input: { new_email: unknown; current_password: unknown },
  ): Promise<{ email: string }> {
    const person = await this.personOf(actor, 'change your e-mail address');
    const data = parse(
      z.object({ new_email: emailSchema, current_password: z.string().max(LIMITS.password.max) }),
      input,
    );
    this.requireMail();
    const stored = await this.store.identity.credentials.getPasswordHash(person.id);
    if (!stored || !(await verifyPassword(data.current_password, stored)))
      throw new DomainError('forbidden', 'The current password is not right; nothing was changed.');
    if (data.new_email === person.email)
      throw new DomainError('invalid_argument', `${data.new_email} is already your address.`);
    if (await this.store.people.getByEmail(data.new_email)) {
      await this.queueSignUpExists(data.new_email);
      return { email: data.new_email };
    }
    await this.store.transaction(async (tx) => {
      await tx.accountTokens.revokeAll(person.id, 'email_change', this.now());
      const token = await this.newToken(
        tx,
        person.id,
        'email_change',
        data.new_email,
        EMAIL_CHANGE_TTL_MS,
      );
      const url = this.mailer.link(`/email/confirm?token=${token}`);
      const m = emailChangeMail(this.site, url, EMAIL_CHANGE_TTL_MS / 3_600_000);
      await this.mailer.queue(tx, { to: { email: data.new_email }, ...m });
    });
    return { email: data.new_email };
  }

  /** Spends an e-mail change link: the account signs in with the new address, the old one is told. */
  async confirmEmailChange(input: { token: unknown }): Promise<{ email: string }> {
    const token = this.tokenOf(input.token);
    try {
      return await this.store.transaction(async (tx) => {
        const spent = await tx.accountTokens.consume(sha256Hex(token), 'email_change', this.now());
        const person = spent && (await tx.people.getById(spent.personId));
        if (!spent || !person) throw this.deadLink('confirmation', 'Ask for the change again.');
        await tx.accountTokens.changeEmail(person.id, spent.email);
        await tx.accountTokens.markVerified(person.id, spent.email);
        if (person.email) {
          const m = emailChangedMail(this.site, spent.email, this.mailer.link('/password/forgot'));
          await this.mailer.queue(tx, { to: { personId: person.id, email: person.email }, ...m });
        }
        this.logger?.info({ event: 'email.changed', personId: person.id }, 'address changed');
        return { email: spent.email };
      });
    } catch (err) {
      if (!(err instanceof UniqueViolation)) throw err;
      throw new DomainError(
        'conflict',
        'Another account took that address meanwhile; nothing was changed.',
      );
    }
  }

  private async queueReset(tx: Store, person: Person, communityId?: string): Promise<void> {
    await tx.accountTokens.revokeAll(person.id, 'reset', this.now());
    const token = await this.newToken(tx, person.id, 'reset', person.email!, RESET_TTL_MS);
    const url = this.mailer.link(`/password/reset?token=${token}`);
    await this.send(tx, person, resetMail(this.site, url, RESET_TTL_MS / 60_000), communityId);
  }

  private async send(tx: Store, person: Person, m: AccountMail, communityId?: string) {
    await this.mailer.queue(tx, {
      to: { personId: person.id, email: person.email! },
      ...m,
      ...(communityId ? { communityId } : {}),
    });
  }

  private async newToken(
    tx: Store,
    personId: string,
    purpose: Purpose,
    email: string,
    ttlMs: number,
  ): Promise<string> {
    const token = randomBase62(40);
    await tx.accountTokens.create({
      personId,
      purpose,
      tokenHash: sha256Hex(token),
      email,
      expiresAt: this.now() + ttlMs,
    });
    return token;
  }

  private now(): number {
    return this.clock().getTime();
  }

  private tokenOf(raw: unknown): string {
    const parsed = tokenSchema.safeParse(raw);
    if (!parsed.success) throw this.deadLink('', 'Open the link from the mail exactly as it came.');
    return parsed.data;
  }

  private deadLink(what: string, fix: string): DomainError {
    return new DomainError(
      'invalid_argument',
      `This ${what ? `${what} ` : ''}link is not valid: it was used already, it expired, or it was cut short. ${fix}`,
    );
  }

  private requireMail(): void {
    if (!this.mailer.enabled)
      throw new DomainError(
        'unavailable',
        'This Hamlet sends no e-mail (its operator has not configured HAMLET_SMTP_URL): ask an administrator.',
      );
  }

  private async personOf(actor: Actor, what: string): Promise<Person> {
    if (actor.kind !== 'person') throw new DomainError('unauthorized', `Sign in to ${what}.`);
    const person = await this.store.people.getById(actor.personId);
    if (!person?.email) throw new DomainError('not_found', 'Your account has no e-mail address.');
    return person;
  }
}
