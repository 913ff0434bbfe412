// One account, every community host: a person signed in on the apex continues on a community's own
// host (`acme.example.org`, whose cookies the apex cannot set) without typing a password again.
// 1. The community host keeps a random state in a cookie and sends the browser to the apex.
// 2. The apex, for a signed-in person who may read that community, mints a one-minute single-use
//    ticket for that host only and sends the browser back (a ticket opens a session only by this
//    exchange, on that host; as a session cookie it is refused).
// 3. The community host checks the state against its cookie (so nobody can sign a visitor into an
//    account of theirs), spends the ticket (revoked as it is used) and opens its own session.
// Steps 1 and 3 run before the host check and answer alike on every host one label under the apex,
// known or not: a private community's host looks unknown to a visitor, and its members reach it
// this way. The apex answers alike for unknown hosts and for communities the person may not read.
// (The path form `/c/<slug>` lives on the apex's host and shares its session already.)
import { randomBytes } from 'node:crypto';
import { safeEqual } from '../../domain/identity/secrets.ts';
import type { Context, Hono } from 'hono';
import { canRead } from '../../domain/authorization.ts';
import { HANDOFF_TICKET_MS } from '../../domain/identity/accounts.ts';
import { PATH_FORM_HOST_HEADER } from '../../domain/urls.ts';
import type { Services } from '../../services.ts';
import type { WebDeps, WebEnv } from '../context.ts';
import { barePage } from '../html.ts';
import { html, markupOf, type Html } from '../template.ts';
import { page, redirectWith, safeNext } from '../respond.ts';
import { setFlash, setHandoffState, setSessionCookie, takeHandoffState } from '../session.ts';

/** A pending hand-off's state lives five times as long as its ticket. */
const STATE_SECONDS = (HANDOFF_TICKET_MS / 1000) * 5;

export type HandoffDeps = {
  services: Services;
  secure: boolean;
  /** The host the browser addressed (Host, or X-Forwarded-Host behind a trusted proxy). */
  hostOf: (c: Context) => string | undefined;
  /** Community hosts are `<slug>.<baseDomain>`. */
  baseDomain: string;
};

function scheme(secure: boolean): string {
  return secure ? 'https' : 'http';
}

/**
 * The host a request addressed and its apex, when it is a host one label under the apex and not
 * the path form (which the HTTP front rewrites to look like one).
 */
function ownHost(c: Context, deps: HandoffDeps): { host: string; apex: string } | undefined {
  const host = deps.hostOf(c);
  const apex = c.req.header(PATH_FORM_HOST_HEADER) ? undefined : apexOf(host, deps.baseDomain);
  return host && apex ? { host, apex } : undefined;
}

/** `<label>.<baseDomain>[:port]` → `<baseDomain>[:port]`, the apex; undefined for any other host. */
export function apexOf(host: string | undefined, baseDomain: string): string | undefined {
  const m = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.(.+?)(:\d+)?$/i.exec(host ?? '');
  return m && m[2]!.toLowerCase() === baseDomain.toLowerCase() ? `${m[2]}${m[3] ?? ''}` : undefined;
}

/** The link the sign-in page and the unknown-host page offer on a host one label under the apex. */
export function continueLink(next: string): Html {
  return html`<p>Signed in on the main site already? <a href="${`/session/continue?next=${encodeURIComponent(next)}`}">Continue with that account</a>.</p>`;
}

/** Steps 1 and 3, on the community's host, before the host check. */
export function mountHandoff(app: Hono, deps: HandoffDeps): void {
  const failed = (c: Context) =>
    c.html(
      markupOf(
        barePage(
          'Sign-in did not complete',
          'It expired, was already used, or was started in another browser. Go back and choose "Continue with that account" again.',
        ),
      ),
      400,
    );

  app.get('/session/continue', (c) => {
    const own = ownHost(c, deps);
    if (!own) return c.notFound();
    const { host, apex } = own;
    const state = randomBytes(24).toString('base64url');
    setHandoffState(c, deps, state, STATE_SECONDS);
    const to = new URL(`${scheme(deps.secure)}://${apex}/session/handoff`);
    to.searchParams.set('return', `${scheme(deps.secure)}://${host}/session/claim`);
    to.searchParams.set('state', state);
    to.searchParams.set('next', safeNext(c.req.query('next'), '/'));
    return c.redirect(to.toString(), 303);
  });

  app.get('/session/claim', async (c) => {
    const own = ownHost(c, deps);
    if (!own) return c.notFound();
    const kept = takeHandoffState(c, deps);
    const state = c.req.query('state') ?? '';
    if (!kept || !safeEqual(kept, state)) return failed(c);
    const session = await deps.services.accounts.exchangeTicket(c.req.query('ticket'), own.host);
    if (!session) return failed(c);
    setSessionCookie(c, deps, session.token);
    setFlash(c, deps, { kind: 'ok', text: `Signed in as ${session.person.displayName}.` });
    return c.redirect(safeNext(c.req.query('next'), '/'), 303);
  });
}

/** Step 2, on the apex: a ticket for a community host of this site that the signed-in person may read. */
export function handoffRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/session/handoff', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'network') return c.notFound();
    const notOurs = () =>
      page(c, web, {
        title: 'Not one of ours',
        status: 400,
        body: html`<h1>That address is not a community you can open here</h1><p>Signing in is only handed to the communities of this site that your account may read.</p>`,
      });
    const state = c.req.query('state') ?? '';
    let back: URL | undefined;
    try {
      back = new URL(c.req.query('return') ?? '');
    } catch {
      back = undefined;
    }
    // Syntax first (the same for every host): our scheme, the claim path, one label under this apex.
    const apex = deps.hostOf(c) ?? '';
    if (
      !/^[A-Za-z0-9_-]{32}$/.test(state) ||
      !back ||
      back.protocol !== `${scheme(deps.secure)}:` ||
      back.pathname !== '/session/claim' ||
      apexOf(back.host, deps.baseDomain) !== apex
    ) {
      return notOurs();
    }
    if (!web.person)
      return redirectWith(c, deps, `/signin?next=${encodeURIComponent(web.path)}`, {
        kind: 'ok',
        text: 'Sign in to continue to the community.',
      });
    const target = await deps.hostKind(back.host, undefined);
    if (target.kind !== 'community' || !canRead(web.person, target.community)) return notOurs();
    back.searchParams.set(
      'ticket',
      await deps.services.accounts.createHandoffTicket(web.person.personId, back.host),
    );
    back.searchParams.set('state', state);
    back.searchParams.set('next', safeNext(c.req.query('next'), '/'));
    return c.redirect(back.toString(), 303);
  });
}
