// People's accounts (e-mail + scrypt password): sign-up (the same answer whether or not the address
// has an account; a verification mail, or a mail to the address's owner), the operator's accounts
// (verified), password changes and sign-in. The one service the faces call for people: it also
// answers for their web sessions (./web-sessions.ts), memberships (./memberships.ts) and user keys
// (./user-keys.ts), which live in their own files. Each change is a use case of the one write
// runner, in a file of its own (./account-open.ts, ./password-change.ts, ./member-set.ts, …).
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community, Person } from '../../store/types.ts';
import type { CommunityPerson, Membership } from '../../store/identity.ts';
import type { Actor, PersonActor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import { accountExists } from './account-exists.ts';
import { accountOpen, AddressTaken, type OpenAccountInput } from './account-open.ts';
import { systemClock, type AuthService, type Clock } from './auth.ts';
import { listMemberships, listPeople, type MemberView } from './memberships.ts';
import { memberRemove } from './member-remove.ts';
import { memberSet } from './member-set.ts';
import { passwordChange } from './password-change.ts';
import { passwordSet } from './password-set.ts';
import { dummyPasswordHash, verifyPassword } from './secrets.ts';
import { UserKeys, type KeyView } from './user-keys.ts';
import { WebSessions, type WebSession } from './web-sessions.ts';
import type { AccountLinks } from './account-links.ts';

export { HANDOFF_TICKET_MS, SESSION_TTL_MS, type WebSession } from './web-sessions.ts';
export { expiryFrom, keyView, type KeyView } from './user-keys.ts';

export class AccountService {
  private readonly sessions: WebSessions;
  private readonly keys: UserKeys;
  private readonly writes: {
    open: ReturnType<typeof accountOpen>;
    exists?: ReturnType<typeof accountExists>;
    change: ReturnType<typeof passwordChange>;
  };

  constructor(
    private readonly store: Store,
    /** Loads a signed-in person's roles, as key authentication does. */
    auth: AuthService,
    /** The one write runner (every change of an account is a use case of it). */
    private readonly runner: WriteRunner,
    clock: Clock = systemClock,
    private readonly logger?: Logger,
    /** Whether anyone may open an account (HAMLET_SIGNUP); the operator's CLI always may. */
    policy: { signUp: boolean } = { signUp: true },
    /** Verification mails at sign-up, and the mail to an address's owner when it is taken. */
    private readonly links?: AccountLinks,
  ) {
    this.sessions = new WebSessions(store, auth, clock, logger);
    this.keys = new UserKeys(store, runner, clock, logger);
    this.writes = {
      open: accountOpen({ signUp: policy.signUp, links: links?.deps }),
      exists: links && accountExists(links.deps),
      change: passwordChange(clock),
    };
  }

  /** The operator's CLI (system), or sign-up (anonymous): a taken address is a conflict that says so. */
  async createUser(actor: Actor, input: OpenAccountInput, options?: RunOptions): Promise<Person> {
    const person = await this.runner.run(this.writes.open, actor, null, input, options);
    this.logger?.info({ event: 'user.created', personId: person.id }, 'user created');
    return person;
  }

  /**
   * Sign-up by a visitor, answered alike whether or not the address already has an account, so that
   * nobody learns which addresses are registered: the same work (the password is hashed either way)
   * and the same answer, the address as it is signed in with. An existing account is left exactly
   * as it was (password, name, sessions); its owner is told by mail. `person` is the new account,
   * absent when the address was taken: for the audit only, a face must not show the difference.
   */
  async signUp(
    actor: Actor,
    input: OpenAccountInput,
    options?: RunOptions,
  ): Promise<{ email: string; person?: Person }> {
    try {
      const person = await this.runner.run(this.writes.open, actor, null, input, options);
      this.logger?.info({ event: 'user.created', personId: person.id }, 'user created');
      return { email: person.email!, person };
    } catch (err) {
      if (!(err instanceof AddressTaken)) throw err;
      this.logger?.info({ event: 'user.exists' }, 'account not created: the address has one');
      if (actor.kind === 'anonymous' && this.writes.exists && this.links?.deps.mailer.enabled)
        await this.runner.run(
          this.writes.exists,
          actor,
          null,
          { email: err.email, site: input.site },
          options,
        );
      return { email: err.email };
    }
  }

  /** The operator (or the account's own person) sets an account's password; its sessions end. */
  async setPassword(
    actor: Actor,
    input: { email: string; password: string },
    options?: RunOptions,
  ): Promise<void> {
    await this.runner.run(passwordSet, actor, null, input, options);
  }

  /**
   * A signed-in person changes their password, proving the current one. Every session of theirs
   * ends (a stolen session does not survive the change); the face opens a fresh one.
   */
  async changePassword(
    actor: Actor,
    input: { current_password: string; new_password: string },
    options?: RunOptions,
  ): Promise<void> {
    await this.runner.run(this.writes.change, actor, null, input, options);
    if (actor.kind === 'person')
      this.logger?.info(
        { event: 'password.changed', personId: actor.personId },
        'password changed',
      );
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

  // — memberships (./member-set.ts, ./member-remove.ts: the rule of ./memberships.ts) —

  async addMember(
    actor: Actor,
    community: Community,
    input: { email: string; role: string },
    options?: RunOptions,
  ): Promise<Membership> {
    return this.runner.run(memberSet, actor, community, input, options);
  }

  async removeMember(
    actor: Actor,
    community: Community,
    input: { email: string },
    options?: RunOptions,
  ): Promise<void> {
    await this.runner.run(memberRemove, actor, community, input, options);
  }

  async listMembers(actor: Actor, community: Community): Promise<MemberView[]> {
    return listMemberships(this.store, actor, community);
  }

  /** Everyone of the community, role or not, a page at a time (./memberships.ts). */
  async listPeople(
    actor: Actor,
    community: Community,
    input: { cursor?: string | null; limit?: number; query?: string } = {},
  ): Promise<{ people: CommunityPerson[]; nextCursor: string | null }> {
    return listPeople(this.store, actor, community, input);
  }

  // — user keys (./user-keys.ts) —

  async mintUserKey(
    actor: Actor,
    input: { email?: string; expiresInDays?: number },
    options?: RunOptions,
  ): Promise<{ key: string; record: KeyView }> {
    return this.keys.mintUserKey(actor, input, options);
  }

  async listUserKeys(actor: Actor, input: { email?: string } = {}): Promise<KeyView[]> {
    return this.keys.listUserKeys(actor, input);
  }

  async revokeUserKey(
    actor: Actor,
    input: { email?: string; key: string },
    options?: RunOptions,
  ): Promise<number> {
    return this.keys.revokeUserKey(actor, input, options);
  }
}
