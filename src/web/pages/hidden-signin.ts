// Signing in where no community shows: a host one label under the apex, or the path form
// /c/<slug>, that resolves to nothing this visitor may see (no such community, or a private one
// seen without a session of one of its members). What these pages show comes from the address alone
// and is the same for both cases, so nobody learns whether a private community is there:
// - the not-found page (src/http/app.ts) offers to sign in: on the host, its own /signin (and the
//   apex's account through ./handoff.ts); in the path form, the apex's sign-in, whose session the
//   path form shares and whose directory lists the person's communities, private ones included
//   (its own /c/<slug>/signin works as well, but a link to it would name the slug, and the page
//   answers every slug of the path form alike, malformed ones too);
// - /signin shows the site's sign-in form, and a right password opens a session on this host (the
//   apex's, in the path form) and goes back to the page asked for: for a member the community is
//   there from then on; for anyone else it stays not found, exactly as an unknown address does.
// These routes run before the host check; on every other host they step aside (the web's own
// sign-in answers there).
import type { Context, Hono } from 'hono';
import { isDomainError } from '../../domain/errors.ts';
import { RateLimitedError } from '../../domain/identity/rate-limit.ts';
import { PATH_FORM_HOST_HEADER } from '../../domain/urls.ts';
import { field } from '../forms.ts';
import { hostPage } from '../html.ts';
import { html, markupOf, type Html } from '../template.ts';
import { safeNext } from '../respond.ts';
import { formIsOurs, sessionToken, setSessionCookie, visitorCsrf } from '../session.ts';
import { apexOf, continueLink, type HandoffDeps } from './handoff.ts';

/** The largest sign-in form these routes read (an address and a password, with room to spare). */
const MAX_FORM_BYTES = 16 * 1024;

export type HiddenSignInDeps = HandoffDeps & {
  /** What the request's host is, as this request may see it (a private community unseen: unknown). */
  visible: (c: Context) => Promise<'network' | 'community' | 'unknown'>;
  clientIp: (c: Context) => string;
};

/**
 * The prefix of links on this address ('' on a host, `/c/<slug>` in the path form), when it is one
 * a community could live at; undefined for any other host.
 */
function baseOf(c: Context, deps: HiddenSignInDeps): string | undefined {
  if (c.req.header(PATH_FORM_HOST_HEADER) !== undefined) {
    // The HTTP front made the path's slug the host (`<slug>.<base>`); a slug no community can have
    // became a host under .invalid, which this does not take.
    const host = c.req.header('host') ?? '';
    return apexOf(host, deps.baseDomain) ? `/c/${host.split('.')[0]!.toLowerCase()}` : undefined;
  }
  return apexOf(deps.hostOf(c), deps.baseDomain) ? '' : undefined;
}

/**
 * The not-found page's offer, the same for an unknown community and a private one unseen: sign in
 * (on a host, its own /signin, and the apex's account through ./handoff.ts; in the path form, on
 * any slug alike, the apex's sign-in, whose directory then lists the person's communities).
 */
export function hiddenHostOffer(c: Context, deps: HiddenSignInDeps): Html {
  const pathForm = c.req.header(PATH_FORM_HOST_HEADER) !== undefined;
  if (!pathForm && baseOf(c, deps) === undefined) return html``;
  const offer = html`<p>A private community shows only to its members, once they have signed in.</p>
<p><a class="button" href="/signin">Sign in</a></p>`;
  return pathForm ? offer : html`${offer}${continueLink(new URL(c.req.url).pathname)}`;
}

function signInPage(
  base: string,
  csrf: string,
  next: string,
  o: { email?: string; error?: string } = {},
): string {
  const error = o.error && html`<div class="notice error" role="alert"><p>${o.error}</p></div>`;
  const body = html`<h1>Sign in</h1>${error}
<p>Members of a private community see it here once signed in.</p>
<form method="post" action="${`${base}/signin`}"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="next" value="${next}">
${field({ name: 'email', label: 'E-mail address', type: 'email', value: o.email, required: true, autocomplete: 'username' })}
${field({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
<div class="actions"><button type="submit">Sign in</button></div></form>
${base === '' ? continueLink(next) : ''}`;
  return markupOf(hostPage('Sign in', body));
}

export function mountHiddenSignIn(app: Hono, deps: HiddenSignInDeps): void {
  const hidden = async (c: Context) =>
    (await deps.visible(c)) === 'unknown' ? baseOf(c, deps) : undefined;

  app.get('/signin', async (c, next) => {
    const base = await hidden(c);
    if (base === undefined) return next();
    c.header('cache-control', 'no-store');
    const back = safeNext(c.req.query('next'), `${base}/`);
    return c.html(signInPage(base, visitorCsrf(c, deps), back));
  });

  app.post('/signin', async (c, next) => {
    const base = await hidden(c);
    if (base === undefined) return next();
    c.header('cache-control', 'no-store');
    if (Number(c.req.header('content-length') ?? 0) > MAX_FORM_BYTES)
      return c.html(
        markupOf(hostPage('Too large', html`<h1>Too large</h1><p>The form is too large.</p>`)),
        413,
      );
    const form = await c.req.parseBody();
    const str = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const email = str('email');
    const back = safeNext(str('next'), `${base}/`);
    const again = (status: 401 | 403 | 429, error: string) =>
      c.html(signInPage(base, visitorCsrf(c, deps), back, { email, error }), status);
    if (!formIsOurs(c, deps, form._csrf, undefined))
      return again(403, 'This form expired or did not come from this site. Sign in again.');
    const ip = deps.clientIp(c);
    try {
      await deps.services.rateLimits.checkIp(ip);
      const attempt = await deps.services.rateLimits.checkSignIn(ip, email);
      const session = await deps.services.accounts.signIn({ email, password: str('password') });
      await attempt.succeeded();
      await deps.services.accounts.revokeWebSession(sessionToken(c, deps));
      setSessionCookie(c, deps, session.token);
      return c.redirect(back, 303);
    } catch (err) {
      if (!isDomainError(err)) throw err;
      if (err instanceof RateLimitedError) c.header('retry-after', String(err.retryAfterSeconds));
      return again(err instanceof RateLimitedError ? 429 : 401, err.message);
    }
  });
}
