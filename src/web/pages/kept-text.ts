// When a form comes back refused (its session ended, or it was opened in another session), the
// person's text is not lost: the refusal page shows it and offers to sign in again, and signing in
// from there keeps it as their draft at the same place (a reply to that topic, or a new topic),
// where the form brings it back. A form from another site keeps nothing.
import type { Context } from 'hono';
import { saveDraft } from '../../operations/drafts.ts';
import { call, href, type Web, type WebDeps } from '../context.ts';
import { text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { html, type Html } from '../template.ts';
import { fromOurPages } from '../session.ts';

/** The place of a writing form's action: `/t/<slug>/…` is a reply to that topic; /ask, /write new. */
function placeOf(pathname: string): { topic?: string; back: string } | undefined {
  const m = /^\/t\/([^/]+)\/(reply|draft)$/.exec(pathname);
  if (m) return { topic: m[1], back: `/t/${m[1]}` };
  if (pathname === '/ask' || pathname === '/write') return { back: pathname };
  return undefined;
}

/** The refusal page's body: the kept text and a sign-in form that saves it as a draft. */
export function expiredBody(c: Context, web: Web, form: FormData): Html {
  const pathname = new URL(c.req.url).pathname;
  const place = placeOf(pathname);
  const body = text(form, 'body');
  const plain = html`<h1>This form has expired</h1><p>It was opened in another session, or sent from another site. Go back, reload the page and send it again.</p>`;
  if (!place || !body.trim() || !fromOurPages(c)) return plain;
  const title = text(form, 'title');
  const signIn = postForm(
    web,
    href(web, '/signin'),
    html`<input type="hidden" name="next" value="${href(web, place.back)}#reply">
<input type="hidden" name="keep_place" value="${place.topic ?? 'new'}">
<input type="hidden" name="keep_title" value="${title}">
<div class="field"><label for="kept">Your text</label><textarea id="kept" name="keep_body" rows="8">${body}</textarea></div>
<div class="field"><label for="kept-email">E-mail address</label><input type="email" id="kept-email" name="email" required autocomplete="username"></div>
<div class="field"><label for="kept-password">Password</label><input type="password" id="kept-password" name="password" required autocomplete="current-password"></div>
<div class="actions"><button type="submit">Sign in and keep my text</button></div>`,
  );
  return html`<h1>Sign in again to send this</h1><div class="notice error" role="alert"><p>Your session ended before the form was sent, so nothing was posted. Your text is safe: it is below. Sign in and it is kept as your draft, back in the form where you wrote it.</p></div>${signIn}`;
}

/** After signing in from the refusal page: the kept text becomes the person's draft there. */
export async function keepAfterSignIn(deps: WebDeps, web: Web, form: FormData): Promise<void> {
  const body = text(form, 'keep_body').trim();
  if (!body || !web.person || web.where.kind !== 'community') return;
  const place = text(form, 'keep_place');
  await call(deps, web, saveDraft, {
    topic: place && place !== 'new' ? place : undefined,
    subject: text(form, 'keep_title') || undefined,
    body,
  });
}
