// Web sessions of people: opened for a person (only the token's hash is stored; the form's CSRF
// token is derived from the session token), resolved from a cookie, revoked at sign-out, and the
// hand-off tickets (one account, every community host) that are spent once for a session of their
// own host.
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { Person } from '../../store/types.ts';
import type { PersonActor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import type { AuthService, Clock } from './auth.ts';
import { csrfTokenFor, newSessionToken, sha256Hex, verifyCsrfToken } from './secrets.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A hand-off ticket (one account, every community host) lives a minute and is spent once. */
export const HANDOFF_TICKET_MS = 60_000;

export type WebSession = { token: string; csrfToken: string; expiresAt: string; person: Person };

export class WebSessions {
  constructor(
    private readonly store: Store,
    /** Loads a signed-in person's roles, as key authentication does. */
    private readonly auth: AuthService,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

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
}
