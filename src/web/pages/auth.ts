// Sign-up, sign-in and sign-out, on the apex and on every community (sessions are per host; a
// community's own host can take the apex's account over, see ./handoff.ts). Sign-up is the
// catalogue's sign_up operation (its schema validates the form, its limits apply); a new account is
// signed in at once (an address that had one, only with its own password: otherwise the answer
// leads to the sign-in page and tells nothing of the account); sign-in
// checks the password within budgets of failed attempts (per account and address, per address)
// and opens a session.
import type { Context, Hono } from 'hono';
import { isDomainError } from '../../domain/errors.ts';
import { RateLimitedError } from '../../domain/identity/rate-limit.ts';
import { LIMITS } from '../../domain/fields.ts';
import { signUp } from '../../operations/people.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, statusOf, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { page, redirectWith, safeNext } from '../respond.ts';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../session.ts';
import { continueLink } from './handoff.ts';
import { keepAfterSignIn } from './kept-text.ts';
import { html, type Html } from '../template.ts';

function signInForm(web: Web, next: string, values: { email?: string }, failure?: Failure): Html {
  return html`<h1>Sign in</h1>${failureSummary(failure)}
${postForm(
  web,
  href(web, '/signin'),
  html`<input type="hidden" name="next" value="${next}">
${field({ name: 'email', label: 'E-mail address', type: 'email', value: values.email, required: true, autocomplete: 'username' })}
${field({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
<div class="actions"><button type="submit">Sign in</button></div>`,
)}
<p><a href="${href(web, '/password/forgot')}">Forgot your password?</a> No account yet? <a href="${`${href(web, '/signup')}?next=${encodeURIComponent(next)}`}">Sign up</a>.</p>${
    // On a community's own host: one account serves every community of this site.
    web.where.kind === 'community' && web.where.base === ''
      ? html`
${continueLink(next)}`
      : ''
  }`;
}

function signUpForm(web: Web, values: FormData, next: string, failure?: Failure): Html {
  return html`<h1>Create an account</h1>${failureSummary(failure)}
${postForm(
  web,
  href(web, '/signup'),
  html`<input type="hidden" name="next" value="${next}">
${field({ name: 'name', label: 'Your name', hint: 'Shown on your posts.', value: text(values, 'name'), required: true, autocomplete: 'name' }, failure?.issues)}
${field({ name: 'handle', label: 'Your @handle (optional)', hint: 'How people mention you: 2-30 of a-z, 0-9, "_" and "-". Left empty, one is made from your name.', value: text(values, 'handle'), autocomplete: 'nickname' }, failure?.issues)}
${field({ name: 'email', label: 'E-mail address', hint: 'You sign in with it; it is never shown to others.', type: 'email', value: text(values, 'email'), required: true, autocomplete: 'email' }, failure?.issues)}
${field({ name: 'password', label: 'Password', hint: `At least ${LIMITS.password.min} characters.`, type: 'password', required: true, autocomplete: 'new-password' }, failure?.issues)}
<div class="actions"><button type="submit">Create account</button></div>`,
)}
<p>Already have one? <a href="${href(web, '/signin')}">Sign in</a>.</p>`;
}

/** Opens a session for the address just signed up with and the password typed, if they match. */
async function signInAfterSignUp(
  c: Context<WebEnv>,
  deps: WebDeps,
  web: Web,
  email: string,
  form: FormData,
): Promise<Response | undefined> {
  try {
    const session = await deps.services.accounts.signIn({
      email,
      password: text(form, 'password'),
    });
    setSessionCookie(c, deps, session.token);
    return redirectWith(c, deps, safeNext(text(form, 'next'), href(web, '/')), {
      kind: 'ok',
      text: `Welcome, ${session.person.displayName}: your account is open and you are signed in as ${email}.`,
    });
  } catch (err) {
    if (isDomainError(err)) return undefined;
    throw err;
  }
}

export function authRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/signin', (c) => {
    const web = c.get('web');
    return page(c, web, {
      title: 'Sign in',
      body: signInForm(web, safeNext(c.req.query('next'), href(web, '/')), {}),
    });
  });

  app.post('/signin', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const email = text(form, 'email');
    const next = safeNext(text(form, 'next'), href(web, '/'));
    try {
      const attempt = await deps.services.rateLimits.checkSignIn(web.ip, email);
      const session = await deps.services.accounts.signIn({
        email,
        password: text(form, 'password'),
      });
      await attempt.succeeded();
      await deps.services.accounts.revokeWebSession(sessionToken(c, deps));
      setSessionCookie(c, deps, session.token);
      const person = await deps.services.accounts.resolveWebSession(session.token);
      if (person) await keepAfterSignIn(deps, { ...web, person }, form);
      return redirectWith(c, deps, next, {
        kind: 'ok',
        text: `Signed in as ${session.person.displayName}.`,
      });
    } catch (err) {
      if (!isDomainError(err)) throw err;
      if (err instanceof RateLimitedError) c.header('retry-after', String(err.retryAfterSeconds));
      const failure: Failure = { ok: false, stage: 'call', code: err.code, message: err.message };
      return page(c, web, {
        title: 'Sign in',
        status: err instanceof RateLimitedError ? 429 : 401,
        body: signInForm(web, next, { email }, failure),
      });
    }
  });

  app.get('/signup', (c) => {
    const web = c.get('web');
    if (web.person) return redirectWith(c, deps, href(web, '/account'));
    const next = safeNext(c.req.query('next'), href(web, '/'));
    return page(c, web, { title: 'Create an account', body: signUpForm(web, {}, next) });
  });

  app.post('/signup', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const outcome = await call(deps, web, signUp, formArgs(signUp, form));
    if (!outcome.ok) {
      if (outcome.retryAfterSeconds) c.header('retry-after', String(outcome.retryAfterSeconds));
      return page(c, web, {
        title: 'Create an account',
        status: statusOf(outcome),
        body: signUpForm(web, form, safeNext(text(form, 'next'), href(web, '/')), outcome),
      });
    }
    // Signing up signs the new account in. An address that already had an account is signed in
    // only with that account's own password; otherwise the answer is the one below, which says
    // nothing of the account (its owner is mailed that someone tried). That a new address signs
    // in and a taken one does not is the one difference, bounded by the sign-up budget per address.
    const signedIn = await signInAfterSignUp(c, deps, web, outcome.value.email, form);
    if (signedIn) return signedIn;
    return redirectWith(c, deps, href(web, '/signin'), {
      kind: 'ok',
      text: `Done: sign in with ${outcome.value.email} and the password you chose. If that address already had an account, it is unchanged: sign in with its own password.`,
    });
  });

  app.post('/signout', async (c) => {
    const web = c.get('web');
    await deps.services.accounts.revokeWebSession(sessionToken(c, deps));
    clearSessionCookie(c, deps);
    return redirectWith(c, deps, href(web, '/'), { kind: 'ok', text: 'Signed out.' });
  });
}
