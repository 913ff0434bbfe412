// People: accounts (e-mail + scrypt password), web sessions (only the token's hash is stored; the
// CSRF token is derived from the session token), memberships with roles, and user keys.
import { z } from 'zod';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community, Person } from '../../store/types.ts';
import type { UserKeyRecord } from '../../store/identity.ts';
import type { Actor, PersonActor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { expiresInDays } from '../fields.ts';
import { parse, translateStoreError } from '../validate.ts';
import { systemClock, type AuthService, type Clock } from './auth.ts';
import {
  listMemberships,
  removeMembership,
  setMembership,
  type MemberView,
} from './memberships.ts';
import {
  csrfTokenFor,
  dummyPasswordHash,
  hashPassword,
  mintKey,
  newSessionToken,
  sha256Hex,
  verifyCsrfToken,
  verifyPassword,
} from './secrets.ts';

const emailSchema = z.string().trim().toLowerCase().pipe(z.email('must be an e-mail address'));
const passwordSchema = z
  .string()
  .min(10, 'must be at least 10 characters')
  .max(1024, 'must be at most 1024 characters');
const createUserSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: z.string().trim().min(1).max(100).optional(),
});
const expiresSchema = expiresInDays.optional();

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A hand-off ticket (one account, every community host) lives a minute and is spent once. */
export const HANDOFF_TICKET_MS = 60_000;

export type WebSession = { token: string; csrfToken: string; expiresAt: string; person: Person };
export type KeyView = {
  id: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
};

export function keyView(k: UserKeyRecord | KeyView): KeyView {
  return {
    id: k.id,
    prefix: k.prefix,
    createdAt: k.createdAt,
    expiresAt: k.expiresAt,
    revokedAt: k.revokedAt,
    lastUsedAt: k.lastUsedAt,
  };
}

export function expiryFrom(now: Date, days: number | undefined): string | null {
  return days === undefined ? null : new Date(now.getTime() + days * 86_400_000).toISOString();
}

export class AccountService {
  constructor(
    private readonly store: Store,
    /** Loads a signed-in person's roles, as key authentication does. */
    private readonly auth: AuthService,
    private readonly clock: Clock = systemClock,
    private readonly logger?: Logger,
    /** Whether anyone may open an account (HAMLET_SIGNUP); the operator's CLI always may. */
    private readonly policy: { signUp: boolean } = { signUp: true },
  ) {}

  /** Sign-up (anonymous) or the operator's CLI (system). */
  async createUser(actor: Actor, input: z.input<typeof createUserSchema>): Promise<Person> {
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
    const passwordHash = await hashPassword(data.password);
    try {
      const person = await this.store.transaction(async (tx) => {
        const p = await tx.people.create({
          displayName: data.name ?? data.email.split('@')[0]!,
          email: data.email,
        });
        await tx.identity.credentials.setPasswordHash(p.id, passwordHash);
        return p;
      });
      this.logger?.info({ event: 'user.created', personId: person.id }, 'user created');
      return person;
    } catch (err) {
      translateStoreError(
        err,
        `An account with the e-mail "${data.email}" already exists. Sign in instead, or use another address.`,
        '',
      );
    }
  }

  async setPassword(actor: Actor, input: { email: string; password: string }): Promise<void> {
    const data = parse(z.object({ email: emailSchema, password: passwordSchema }), input);
    const person = await this.requirePerson(data.email);
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
      z.object({ current_password: z.string().max(1024), new_password: passwordSchema }),
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
      'Wrong e-mail or password. Check both and try again, or ask an administrator to reset your password.',
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
    const session = await this.createWebSession(person.id);
    this.logger?.info({ event: 'signin.ok', personId: person.id }, 'signed in');
    return session;
  }

  /** A web session of the usual length. */
  async createWebSession(personId: string): Promise<WebSession> {
    return this.newSessionRow(personId, SESSION_TTL_MS);
  }

  /**
   * A hand-off ticket for `personId`, spendable only on `host` (by exchangeTicket): its token is
   * carried in a URL, and it is never a session by itself.
   */
  async createHandoffTicket(personId: string, host: string): Promise<string> {
    return (await this.newSessionRow(personId, HANDOFF_TICKET_MS, host.toLowerCase())).token;
  }

  private async newSessionRow(
    personId: string,
    ttlMs: number,
    ticketHost?: string,
  ): Promise<WebSession> {
    const person = await this.store.people.getById(personId);
    if (!person) throw new DomainError('not_found', 'No such account.');
    const token = newSessionToken();
    const now = this.clock();
    const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
    await this.store.identity.credentials.createSession({
      personId,
      tokenHash: sha256Hex(token),
      createdAt: now.toISOString(),
      expiresAt,
      ticketHost,
    });
    return { token, csrfToken: csrfTokenFor(token), expiresAt, person };
  }

  /**
   * Spends a hand-off ticket on `host`, valid once (revoked by a conditional update, so two requests
   * cannot both spend it), for a new session of the usual length for the same person. Undefined
   * when unknown, spent, expired, minted for another host, or not a ticket (a real session's token
   * is never taken from a URL).
   */
  async exchangeTicket(token: unknown, host: string): Promise<WebSession | undefined> {
    if (typeof token !== 'string' || !token) return undefined;
    const hash = sha256Hex(token);
    const ticket = await this.store.identity.credentials.findSessionByHash(hash);
    const expires = ticket ? Date.parse(ticket.expiresAt) : 0;
    if (
      !ticket ||
      ticket.revokedAt ||
      expires <= this.clock().getTime() ||
      ticket.ticketHost !== host.toLowerCase()
    )
      return undefined;
    if (!(await this.store.identity.credentials.revokeSession(hash, this.clock().toISOString())))
      return undefined;
    this.logger?.info(
      { event: 'signin.handoff', personId: ticket.personId },
      'signed in with a hand-off ticket',
    );
    return this.createWebSession(ticket.personId);
  }

  /** The signed-in person of a session cookie, or undefined (unknown, revoked, expired, or a hand-off ticket). */
  async resolveWebSession(token: string | null | undefined): Promise<PersonActor | undefined> {
    if (!token) return undefined;
    const session = await this.store.identity.credentials.findSessionByHash(sha256Hex(token));
    if (
      !session ||
      session.revokedAt ||
      Date.parse(session.expiresAt) <= this.clock().getTime() ||
      session.ticketHost !== null
    )
      return undefined;
    const person = await this.store.people.getById(session.personId);
    if (!person) return undefined;
    return {
      kind: 'person',
      personId: person.id,
      displayName: person.displayName,
      via: 'session',
      roles: await this.auth.rolesOf(person.id),
    };
  }

  async revokeWebSession(token: string | null | undefined): Promise<boolean> {
    if (!token) return false;
    return this.store.identity.credentials.revokeSession(
      sha256Hex(token),
      this.clock().toISOString(),
    );
  }

  csrfToken(sessionToken: string): string {
    return csrfTokenFor(sessionToken);
  }

  /** For state-changing web requests: the form's CSRF token must match the session cookie's. */
  verifyCsrf(
    sessionToken: string | null | undefined,
    presented: string | null | undefined,
  ): boolean {
    return Boolean(sessionToken) && verifyCsrfToken(sessionToken!, presented);
  }

  // — memberships (./memberships.ts: the rule of src/domain/authorization.ts, in one transaction) —

  async addMember(actor: Actor, community: Community, input: { email: string; role: string }) {
    return setMembership(this.store, actor, community, input);
  }

  async removeMember(actor: Actor, community: Community, input: { email: string }): Promise<void> {
    return removeMembership(this.store, actor, community, input);
  }

  async listMembers(actor: Actor, community: Community): Promise<MemberView[]> {
    return listMemberships(this.store, actor, community);
  }

  // — user keys —

  /** A person mints a key for themselves; the operator (system) may mint one for any e-mail. */
  async mintUserKey(
    actor: Actor,
    input: { email?: string; expiresInDays?: number },
  ): Promise<{ key: string; record: KeyView }> {
    const expiresInDays = parse(expiresSchema, input.expiresInDays);
    const person = await this.keyOwner(actor, input.email);
    const minted = mintKey('user');
    const record = await this.store.identity.credentials.createUserKey({
      personId: person.id,
      prefix: minted.prefix,
      keyHash: minted.hash,
      expiresAt: expiryFrom(this.clock(), expiresInDays),
    });
    this.logger?.info(
      { event: 'user_key.minted', personId: person.id, keyPrefix: record.prefix },
      'user key minted',
    );
    return { key: minted.key, record: keyView(record) };
  }

  async listUserKeys(actor: Actor, input: { email?: string } = {}): Promise<KeyView[]> {
    const person = await this.keyOwner(actor, input.email);
    return (await this.store.identity.credentials.listUserKeys(person.id)).map(keyView);
  }

  async revokeUserKey(actor: Actor, input: { email?: string; key: string }): Promise<number> {
    const person = await this.keyOwner(actor, input.email);
    const n = await this.store.identity.credentials.revokeUserKey(
      person.id,
      input.key.trim(),
      this.clock().toISOString(),
    );
    if (n === 0)
      throw new DomainError(
        'not_found',
        `No live user key "${input.key}" of ${person.email ?? person.displayName}. List keys to see their prefixes.`,
      );
    this.logger?.info(
      { event: 'user_key.revoked', personId: person.id, keyPrefix: input.key.slice(0, 14) },
      'user key revoked',
    );
    return n;
  }

  private async keyOwner(actor: Actor, email: string | undefined): Promise<Person> {
    if (actor.kind === 'system') {
      if (!email)
        throw new DomainError('invalid_argument', 'Say whose key: pass the e-mail of the account.');
      return this.requirePerson(parse(emailSchema, email));
    }
    if (actor.kind !== 'person')
      throw new DomainError('unauthorized', 'Sign in to manage your user keys.');
    const person = await this.store.people.getById(actor.personId);
    if (!person) throw new DomainError('not_found', 'Your account no longer exists.');
    if (email && person.email !== email.trim().toLowerCase())
      throw new DomainError('forbidden', 'You can only manage your own user keys.');
    return person;
  }

  private async requirePerson(email: string): Promise<Person> {
    const person = await this.store.people.getByEmail(email);
    if (!person)
      throw new DomainError(
        'not_found',
        `No account with the e-mail "${email}". Create it first with \`hamlet user create\`.`,
      );
    return person;
  }
}
