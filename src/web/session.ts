// Sessions and forms' protection. The session cookie is HttpOnly, SameSite=Lax, Path=/, and Secure
// behind TLS (then named __Host-…, which browsers only accept from a secure origin, for this host
// only). Every POST must come from our own pages: a cross-site Sec-Fetch-Site or a foreign Origin is
// refused, and the form's token must match the session's (signed in) or the pre-session cookie's
// (sign-in and sign-up forms, so nobody can sign a visitor into an account of theirs). A cookie
// whose session has ended is cleared: its holder is a visitor again.
import { randomBytes } from 'node:crypto';
import { safeEqual } from '../domain/identity/secrets.ts';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SESSION_TTL_MS } from '../domain/identity/accounts.ts';
import { PATH_FORM_HOST_HEADER } from '../domain/urls.ts';
import type { PersonActor } from '../domain/actor.ts';
import type { Notice, WebDeps } from './context.ts';

export type CookieNames = { session: string; csrf: string; flash: string; handoff: string };

export function cookieNames(secure: boolean): CookieNames {
  const p = secure ? '__Host-' : '';
  return {
    session: `${p}hamlet_session`,
    csrf: `${p}hamlet_csrf`,
    flash: `${p}hamlet_flash`,
    handoff: `${p}hamlet_handoff`,
  };
}

function cookieOptions(secure: boolean, maxAgeSeconds?: number) {
  return {
    httpOnly: true,
    sameSite: 'Lax' as const,
    path: '/',
    secure,
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  };
}

export function setSessionCookie(c: Context, deps: Pick<WebDeps, 'secure'>, token: string): void {
  setCookie(
    c,
    cookieNames(deps.secure).session,
    token,
    cookieOptions(deps.secure, Math.floor(SESSION_TTL_MS / 1000)),
  );
}

export function clearSessionCookie(c: Context, deps: WebDeps): void {
  deleteCookie(c, cookieNames(deps.secure).session, { path: '/', secure: deps.secure });
}

export function sessionToken(c: Context, deps: Pick<WebDeps, 'secure'>): string | undefined {
  return getCookie(c, cookieNames(deps.secure).session) || undefined;
}

/**
 * The live session of the request's cookie: its token and person. A cookie naming no live session
 * (ended by a password change elsewhere, expired, a hand-off ticket) is cleared, and the request
 * goes on as a visitor's, with the pre-session form token, so the person can sign in again.
 */
export async function liveSession(
  c: Context,
  deps: WebDeps,
): Promise<{ token: string; person: PersonActor } | undefined> {
  const token = sessionToken(c, deps);
  if (!token) return undefined;
  const person = await deps.services.accounts.resolveWebSession(token);
  if (person) return { token, person };
  clearSessionCookie(c, deps);
  return undefined;
}

/** The pre-session form token: read from its cookie, or minted and set now. */
export function visitorCsrf(c: Context, deps: Pick<WebDeps, 'secure'>): string {
  const name = cookieNames(deps.secure).csrf;
  const existing = getCookie(c, name);
  if (existing && /^[A-Za-z0-9_-]{32,64}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  setCookie(c, name, token, cookieOptions(deps.secure, 60 * 60 * 24));
  return token;
}

/** Whether the request came from a page of ours: not cross-site, and no Origin but our own host. */
export function fromOurPages(c: Context): boolean {
  if (c.req.header('sec-fetch-site') === 'cross-site') return false;
  const origin = c.req.header('origin');
  if (origin === 'null') return false;
  if (!origin) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  // In the path form the HTTP front rewrote Host; the page came from the host it kept aside.
  const addressed = c.req.header(PATH_FORM_HOST_HEADER);
  const ours = [c.req.header('host'), c.req.header('x-forwarded-host'), addressed]
    .filter(Boolean)
    .map((h) => h!.split(',')[0]!.trim().toLowerCase());
  return ours.includes(host.toLowerCase());
}

/**
 * Whether a state-changing request came from one of our own pages, with the right form token: the
 * live session's (`session`, its token, from liveSession), else the pre-session cookie's.
 */
export function formIsOurs(
  c: Context,
  deps: Pick<WebDeps, 'secure' | 'services'>,
  presented: unknown,
  session: string | undefined,
): boolean {
  if (!fromOurPages(c)) return false;
  if (typeof presented !== 'string' || !presented) return false;
  if (session) return deps.services.accounts.verifyCsrf(session, presented);
  const visitor = getCookie(c, cookieNames(deps.secure).csrf);
  return Boolean(visitor) && safeEqual(visitor!, presented);
}

/** The state of a pending hand-off from the apex (./pages/handoff.ts), kept for `seconds`. */
export function setHandoffState(
  c: Context,
  deps: Pick<WebDeps, 'secure'>,
  state: string,
  seconds: number,
): void {
  setCookie(c, cookieNames(deps.secure).handoff, state, cookieOptions(deps.secure, seconds));
}

/** The pending hand-off's state, read once (the cookie is cleared); '' when there is none. */
export function takeHandoffState(c: Context, deps: Pick<WebDeps, 'secure'>): string {
  const name = cookieNames(deps.secure).handoff;
  const state = getCookie(c, name) ?? '';
  deleteCookie(c, name, { path: '/', secure: deps.secure });
  return state;
}

/** A one-time notice carried to the next page after a redirect (POST → 303 → GET). */
export function setFlash(c: Context, deps: Pick<WebDeps, 'secure'>, n: Notice): void {
  setCookie(
    c,
    cookieNames(deps.secure).flash,
    Buffer.from(JSON.stringify(n)).toString('base64url'),
    cookieOptions(deps.secure, 60),
  );
}

export function takeFlash(c: Context, deps: WebDeps): Notice | undefined {
  const name = cookieNames(deps.secure).flash;
  const raw = getCookie(c, name);
  if (!raw) return undefined;
  deleteCookie(c, name, { path: '/', secure: deps.secure });
  try {
    const n = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Notice;
    return (n.kind === 'ok' || n.kind === 'error') && typeof n.text === 'string'
      ? { kind: n.kind, text: n.text.slice(0, 500) }
      : undefined;
  } catch {
    return undefined;
  }
}
