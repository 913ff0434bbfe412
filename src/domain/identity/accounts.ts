// People's accounts (e-mail + scrypt password): sign-up (the same answer whether or not the address
// has an account; a verification mail, or a mail to the address's owner), the operator's accounts
// (verified), password changes and sign-in. The one service the faces call for people: it also answers for their web sessions
// (./web-sessions.ts), memberships (./memberships.ts) and user keys (./user-keys.ts), which live
// in their own files.
import { handleField } from '../writes/handle-set.ts';
import { z } from 'zod';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community, Person } from '../../store/types.ts';
import type { CommunityPerson, Membership } from '../../store/identity.ts';
import type { Actor, PersonActor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { UniqueViolation } from '../../store/errors.ts';
import { parse } from '../validate.ts';
import { systemClock, type AuthService, type Clock } from './auth.ts';
import { email as emailSchema, LIMITS, password as passwordSchema } from '../fields.ts';
import { requirePerson } from './account-fields.ts';
import {
  listMemberships,
  listPeople,
  removeMembership,
  setMembership,
  type MemberView,
} from './memberships.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from './secrets.ts';
import { UserKeys, type KeyView } from './user-keys.ts';
import { WebSessions, type WebSession } from './web-sessions.ts';
import type { AccountLinks } from './account-links.ts';

export { HANDOFF_TICKET_MS, SESSION_TTL_MS, type WebSession } from './web-sessions.ts';
export { expiryFrom, keyView, type KeyView } from './user-keys.ts';

const createUserSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: z.string().trim().min(1).max(100).optional(),
  /** The @handle chosen at sign-up; without one, a free one is made from the name. */
  handle: handleField.optional(),
});

export class AccountService {
  private readonly sessions: WebSessions;
  private readonly keys: UserKeys;

  constructor(
    private readonly store: Store,
    /** Loads a signed-in person's roles, as key authentication does. */
    auth: AuthService,
    private readonly clock: Clock = systemClock,
    private readonly logger?: Logger,
    /** Whether anyone may open an account (HAMLET_SIGNUP); the operator's CLI always may. */
    private readonly policy: { signUp: boolean } = { signUp: true },
    /** Verification mails at sign-up, and the mail to an address's owner when it is taken. */
    private readonly links?: AccountLinks,
  ) {
    this.sessions = new WebSessions(store, auth, clock, logger);
    this.keys = new UserKeys(store, clock, logger);
  }

  /** The operator's CLI (system), or sign-up (anonymous): a taken address is a conflict that says so. */
  async createUser(actor: Actor, input: z.input<typeof createUserSchema>): Promise<Person> {
    const { person, email } = await this.openAccount(actor, input);
    if (!person)
      throw new DomainError(
        'conflict',
        `An account with the e-mail "${email}" already exists. Sign in instead, or use another address.`,
      );
    return person;
  }

  /**
   * Sign-up by a visitor, answered alike whether or not the address already has an account, so that
   * nobody learns which addresses are registered: the same work (the password is hashed either way)
   * and the same answer, the address as it is signed in with. An existing account is left exactly
   * as it was (password, name, sessions). `person` is the new account, absent when the address was
   * taken: for the audit only, a face must not show the difference.
   */
  async signUp(
    actor: Actor,
    input: z.input<typeof createUserSchema>,
  ): Promise<{ email: string; person?: Person }> {
    return this.openAccount(actor, input);
  }

  private async openAccount(
    actor: Actor,
    input: z.input<typeof createUserSchema>,
  ): Promise<{ email: string; person?: Person }> {
    if (actor.kind !== 'system' && actor.kind !== 'anonymous') {
      throw new DomainError(
        'forbidden',
        'You are already signed in; sign out to create another account.',
      );
    }
    if (actor.kind === 'anonymous' && !this.policy.signUp) {
      throw new DomainError(
        'forbidden',
        'Sign-up is closed on this Hamlet: ask its operator to create your account (hamlet user create).',
      );
    }
    const data = parse(createUserSchema, input);
    // A taken handle is refused whoever has the address: the answer tells nothing of addresses.
    if (data.handle && (await this.store.people.getByHandle(data.handle)))
      throw new DomainError(
        'conflict',
        `The handle "@${data.handle}" is taken. Choose another one (or leave it empty).`,
      );
    const passwordHash = await hashPassword(data.password);
    try {
      const person = await this.store.transaction(async (tx) => {
        const p = await tx.people.create({
          displayName: data.name ?? data.email.split('@')[0]!,
          email: data.email,
          ...(data.handle ? { handle: data.handle } : {}),
        });
        await tx.identity.credentials.setPasswordHash(p.id, passwordHash);
        // The operator's accounts count as verified; a visitor's get a link to prove the address.
        if (actor.kind === 'system') await tx.accountTokens.markVerified(p.id, data.email);
        else await this.links?.queueVerification(tx, p);
        return p;
      });
      this.logger?.info({ event: 'user.created', personId: person.id }, 'user created');
      return { email: data.email, person };
    } catch (err) {
      if (!(err instanceof UniqueViolation)) throw err;
      this.logger?.info({ event: 'user.exists' }, 'account not created: the address has one');
      // A visitor is answered alike; the address's owner learns of the attempt by mail.
      if (actor.kind === 'anonymous') await this.links?.queueSignUpExists(data.email);
      return { email: data.email };
    }
  }

  async setPassword(actor: Actor, input: { email: string; password: string }): Promise<void> {
    const data = parse(z.object({ email: emailSchema, password: passwordSchema }), input);
    const person = await requirePerson(this.store, data.email);
    if (actor.kind !== 'system' && !(actor.kind === 'person' && actor.personId === person.id)) {
      throw new DomainError('forbidden', 'You can only change your own password.');
    }
    await this.store.identity.credentials.setPasswordHash(
      person.id,
      await hashPassword(data.password),
    );
    await this.store.identity.credentials.revokeSessionsOf(person.id);
  }

  /**
   * A signed-in person changes their password, proving the current one. Every session of theirs
   * ends (a stolen session does not survive the change); the face opens a fresh one.
   */
  async changePassword(
    actor: Actor,
    input: { current_password: string; new_password: string },
  ): Promise<void> {
    if (actor.kind !== 'person')
      throw new DomainError('unauthorized', 'Sign in to change your password.');
    const data = parse(
      z.object({
        current_password: z.string().max(LIMITS.password.max),
        new_password: passwordSchema,
      }),
      input,
    );
    const stored = await this.store.identity.credentials.getPasswordHash(actor.personId);
    if (!stored || !(await verifyPassword(data.current_password, stored))) {
      throw new DomainError(
        'forbidden',
        'The current password is not right. Type it again; nothing was changed.',
      );
    }
    if (data.current_password === data.new_password)
      throw new DomainError(
        'invalid_argument',
        'The new password is the same as the current one. Choose another.',
      );
    await this.store.identity.credentials.setPasswordHash(
      actor.personId,
      await hashPassword(data.new_password),
    );
    await this.store.identity.credentials.revokeSessionsOf(
      actor.personId,
      this.clock().toISOString(),
    );
    this.logger?.info({ event: 'password.changed', personId: actor.personId }, 'password changed');
  }

  /** Checks e-mail and password and opens a web session. Same answer for unknown e-mail and wrong password. */
  async signIn(input: { email: string; password: string }): Promise<WebSession> {
    const wrong = new DomainError(
      'unauthorized',
      'Wrong e-mail or password. Check both and try again; if you forgot your password, get a new one at /password/forgot.',
    );
    const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
    const password = typeof input.password === 'string' ? input.password : '';
    const person = email ? await this.store.people.getByEmail(email) : undefined;
    const stored = person
      ? await this.store.identity.credentials.getPasswordHash(person.id)
      : undefined;
    const ok = await verifyPassword(password, stored ?? (await dummyPasswordHash()));
    if (!person || !stored || !ok) {
      this.logger?.info({ event: 'signin.failed', known: Boolean(person) }, 'sign-in refused');
      throw wrong;
    }
    const session = await this.sessions.createWebSession(person.id);
    this.logger?.info({ event: 'signin.ok', personId: person.id }, 'signed in');
    return session;
  }

  // — web sessions (./web-sessions.ts) —

  async createWebSession(personId: string): Promise<WebSession> {
    return this.sessions.createWebSession(personId);
  }

  async createHandoffTicket(personId: string, host: string): Promise<string> {
    return this.sessions.createHandoffTicket(personId, host);
  }

  async exchangeTicket(token: unknown, host: string): Promise<WebSession | undefined> {
    return this.sessions.exchangeTicket(token, host);
  }

  async resolveWebSession(token: string | null | undefined): Promise<PersonActor | undefined> {
    return this.sessions.resolveWebSession(token);
  }

  async revokeWebSession(token: string | null | undefined): Promise<boolean> {
    return this.sessions.revokeWebSession(token);
  }

  csrfToken(sessionToken: string): string {
    return this.sessions.csrfToken(sessionToken);
  }

  verifyCsrf(
    sessionToken: string | null | undefined,
    presented: string | null | undefined,
  ): boolean {
    return this.sessions.verifyCsrf(sessionToken, presented);
  }

  // — memberships (./memberships.ts: the rule of src/domain/authorization.ts, in one transaction) —

  async addMember(
    actor: Actor,
    community: Community,
    input: { email: string; role: string },
  ): Promise<Membership> {
    return setMembership(this.store, actor, community, input);
  }

  async removeMember(actor: Actor, community: Community, input: { email: string }): Promise<void> {
    return removeMembership(this.store, actor, community, input);
  }

  async listMembers(actor: Actor, community: Community): Promise<MemberView[]> {
    return listMemberships(this.store, actor, community);
  }

  /** Everyone of the community, role or not, a page at a time (./memberships.ts). */
  async listPeople(
    actor: Actor,
    community: Community,
    input: { cursor?: string | null; limit?: number } = {},
  ): Promise<{ people: CommunityPerson[]; nextCursor: string | null }> {
    return listPeople(this.store, actor, community, input);
  }

  // — user keys (./user-keys.ts) —

  async mintUserKey(
    actor: Actor,
    input: { email?: string; expiresInDays?: number },
  ): Promise<{ key: string; record: KeyView }> {
    return this.keys.mintUserKey(actor, input);
  }

  async listUserKeys(actor: Actor, input: { email?: string } = {}): Promise<KeyView[]> {
    return this.keys.listUserKeys(actor, input);
  }

  async revokeUserKey(actor: Actor, input: { email?: string; key: string }): Promise<number> {
    return this.keys.revokeUserKey(actor, input);
  }
}
