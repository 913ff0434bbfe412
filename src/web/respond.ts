// How web handlers answer: a page (never cached when it shows a signed-in person's data), a
// failure shown with the pipeline's own message and the matching status, a redirect after a form
// (POST → 303 → GET, with a one-time notice), and "sign in first" for pages that need a person.
import type { Context } from 'hono';
import type { Failure } from '../operations/pipeline.ts';
import { href, statusOf, type Notice, type Web, type WebDeps } from './context.ts';
import { layout, type PageOptions } from './html.ts';
import { html, markupOf } from './template.ts';
import { setFlash } from './session.ts';

export function page(c: Context, web: Web, o: PageOptions): Response {
  if (web.person) c.header('cache-control', 'no-store');
  return c.html(markupOf(layout(web, o)), (o.status ?? 200) as 200);
}

/** Nothing here, or nothing this visitor may see: one answer for both, so nothing leaks. */
export function notFound(
  c: Context,
  web: Web,
  message = 'There is nothing at this address, or it is not public.',
): Response {
  return page(c, web, {
    title: 'Not found',
    status: 404,
    body: html`<h1>Not found</h1><p>${message}</p>`,
  });
}

/** A failed operation as a page: 404 for not_found, else its message with the status it implies. */
export function failurePage(
  c: Context,
  web: Web,
  f: Failure,
  title = 'That did not work',
): Response {
  // The operations' not_found texts point agents to tools ("… from list_topics"): a person gets
  // the page's own words.
  if (f.code === 'not_found') return notFound(c, web);
  if (f.retryAfterSeconds) c.header('retry-after', String(f.retryAfterSeconds));
  const signIn =
    f.code === 'unauthorized' && !web.person
      ? html`<p><a href="${signInHref(web)}">Sign in</a> to continue.</p>`
      : '';
  return page(c, web, {
    title,
    status: statusOf(f),
    body: html`<h1>${title}</h1><div class="notice error" role="alert"><p>${f.message}</p></div>${signIn}`,
  });
}

export function signInHref(web: Web): string {
  return `${href(web, '/signin')}?next=${encodeURIComponent(web.path)}`;
}

/** Pages for signed-in people: send visitors to sign in and come back. */
export function needsPerson(c: Context, web: Web): Response | undefined {
  return web.person ? undefined : c.redirect(signInHref(web), 303);
}

export function redirectWith(c: Context, deps: WebDeps, to: string, flash?: Notice): Response {
  if (flash) setFlash(c, deps, flash);
  return c.redirect(to, 303);
}

/**
 * Where to go after signing in (`next`): a path on this origin, else `fallback`. Refused: anything
 * that does not start with exactly one `/` (`//host`, `/\host`); a backslash or a control character
 * anywhere (browsers drop tabs and newlines from a URL, so `/\t/host` is `//host`, and a newline
 * cannot go in a Location header); a path that the URL parser resolves to `//…` (`/..//host`) or
 * that decodes to one of these (`/%2F/host`, `/%5Chost`, `/%09/host`). What passes comes back as the
 * URL parser writes it (non-ASCII percent-encoded), fit for a Location header.
 */
export function safeNext(next: string | undefined, fallback: string): string {
  if (typeof next !== 'string' || next.length > 4000 || !onePath(next)) return fallback;
  const base = 'http://next.invalid';
  let url: URL;
  let decodedPath: string;
  try {
    url = new URL(next, base);
    decodedPath = decodeURIComponent(url.pathname);
  } catch {
    return fallback;
  }
  const out = url.pathname + url.search + url.hash;
  return url.origin === base && onePath(out) && onePath(decodedPath) ? out : fallback;
}

/** Starts with one `/`, and holds no backslash and no control character. */
function onePath(s: string): boolean {
  return s.startsWith('/') && !s.startsWith('//') && !/[\\\u0000-\u001f\u007f]/.test(s);
}
