// One account, every community host: a person signed in on the apex continues on a community's own
// host (`acme.example.org`, whose cookies the apex cannot set) without typing a password again.
// The community host sends the browser to the apex with a random state it also keeps in a cookie;
// the apex, for a signed-in person, mints a one-minute single-use ticket (a web session that lives
// a minute) and sends the browser back; the community host checks the state against its cookie (so
// nobody can sign a visitor into an account of theirs), spends the ticket (revoked as it is used)
// and opens its own session. The apex only sends tickets to hosts of its own communities.
// (The path form `/c/<slug>` lives on the apex host and shares its session already.)
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { href, type WebDeps, type WebEnv } from '../context.ts';
import { esc } from '../html.ts';
import { page, redirectWith, safeNext } from '../respond.ts';
import { setSessionCookie } from '../session.ts';

/** How long a ticket and a pending hand-off last. */
const TICKET_MS = 60_000;

function stateCookie(deps: WebDeps): string {
  return deps.secure ? '__Host-hamlet_handoff' : 'hamlet_handoff';
}

/** The host the browser addressed (the forwarded one behind a trusted proxy is what hostKind read too). */
function requestHost(c: Context): string {
  return c.req.header('x-forwarded-host')?.split(',')[0]?.trim() || c.req.header('host') || '';
}

function scheme(deps: WebDeps): string {
  return deps.secure ? 'https' : 'http';
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether the community host form applies here (not the path form on the apex's host). */
function onOwnHost(where: { kind: string; base: string }): boolean {
  return where.kind === 'community' && where.base === '';
}

/** The apex host of a community host `<slug>.<apex>`. */
function apexOf(host: string, slug: string): string | undefined {
  return host.startsWith(`${slug}.`) ? host.slice(slug.length + 1) : undefined;
}

export function handoffRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  // On a community host: go and fetch the apex's account.
  app.get('/session/continue', (c) => {
    const web = c.get('web');
    const next = safeNext(c.req.query('next'), '/');
    if (web.where.kind !== 'community' || !onOwnHost(web.where)) return redirectWith(c, deps, href(web, '/signin'));
    if (web.person) return redirectWith(c, deps, next);
    const apex = apexOf(requestHost(c), web.where.community.slug);
    if (!apex) return redirectWith(c, deps, href(web, '/signin'));
    const state = randomBytes(24).toString('base64url');
    setCookie(c, stateCookie(deps), state, { httpOnly: true, sameSite: 'Lax', path: '/', secure: deps.secure, maxAge: TICKET_MS / 1000 * 5 });
    const back = `${scheme(deps)}://${requestHost(c)}/session/claim`;
    const to = new URL(`${scheme(deps)}://${apex}/session/handoff`);
    to.searchParams.set('return', back);
    to.searchParams.set('state', state);
    to.searchParams.set('next', next);
    return c.redirect(to.toString(), 303);
  });

  // On the apex: a ticket for a community host of this installation, for the signed-in person.
  app.get('/session/handoff', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'network') return page(c, web, { title: 'Not found', status: 404, body: '<h1>Not found</h1>' });
    const back = parseReturn(c.req.query('return'));
    const apex = requestHost(c);
    const target = back && back.protocol === `${scheme(deps)}:` && back.pathname === '/session/claim' && back.host.endsWith(`.${apex}`)
      ? await deps.hostKind(back.host, undefined)
      : undefined;
    if (!back || target?.kind !== 'community') {
      return page(c, web, { title: 'Not one of ours', status: 400, body: '<h1>That address is not a community here</h1><p>Signing in is only handed to the communities of this site.</p>' });
    }
    const state = c.req.query('state') ?? '';
    if (!/^[A-Za-z0-9_-]{32}$/.test(state)) return page(c, web, { title: 'Expired', status: 400, body: '<h1>This sign-in link is incomplete</h1><p>Go back to the community and choose "continue" again.</p>' });
    if (!web.person) return redirectWith(c, deps, `/signin?next=${encodeURIComponent(web.path)}`, { kind: 'ok', text: `Sign in to continue to ${target.community.name}.` });
    const ticket = await deps.services.accounts.createWebSession(web.person.personId, TICKET_MS);
    back.searchParams.set('ticket', ticket.token);
    back.searchParams.set('state', state);
    back.searchParams.set('next', safeNext(c.req.query('next'), '/'));
    return c.redirect(back.toString(), 303);
  });

  // Back on the community host: this browser's state, a ticket used once, a session of its own.
  app.get('/session/claim', async (c) => {
    const web = c.get('web');
    const next = safeNext(c.req.query('next'), '/');
    const kept = getCookie(c, stateCookie(deps)) ?? '';
    deleteCookie(c, stateCookie(deps), { path: '/', secure: deps.secure });
    const state = c.req.query('state') ?? '';
    const failed = () => page(c, web, { title: 'Sign-in expired', status: 400, body: `<h1>This sign-in did not complete</h1><p>It expired, was already used, or was started in another browser. <a href="${esc(href(web, '/signin'))}">Sign in again</a>.</p>` });
    if (web.where.kind !== 'community' || !onOwnHost(web.where) || !kept || !same(kept, state)) return failed();
    const session = await deps.services.accounts.exchangeTicket(c.req.query('ticket'), TICKET_MS);
    if (!session) return failed();
    setSessionCookie(c, deps, session.token);
    return redirectWith(c, deps, next, { kind: 'ok', text: `Signed in as ${session.person.displayName}.` });
  });
}

function parseReturn(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
