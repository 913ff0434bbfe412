// Password reset by e-mail, on the apex and on every community: `/password/forgot` asks for an
// address and answers the same whether or not it has an account; `/password/reset?token=…` (the
// mailed link) asks for the new password, spends the link and leads to the sign-in page (every
// session of the account ended).
import type { Hono } from 'hono';
import { LIMITS } from '../../domain/fields.ts';
import { requestPasswordReset, resetPassword } from '../../operations/account-mail.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, statusOf, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { page, redirectWith } from '../respond.ts';
import { html, type Html } from '../template.ts';

function forgotForm(web: Web, values: FormData, failure?: Failure): Html {
  return html`<h1>Forgot your password?</h1>${failureSummary(failure)}
<p>Give the address you sign in with: we mail it a link to choose a new password (valid one hour).</p>
${postForm(
  web,
  href(web, '/password/forgot'),
  html`${field({ name: 'email', label: 'E-mail address', type: 'email', value: text(values, 'email'), required: true, autocomplete: 'email' }, failure?.issues)}
<div class="actions"><button type="submit">Mail me a link</button></div>`,
)}
<p><a href="${href(web, '/signin')}">Back to sign in</a></p>`;
}

function resetForm(web: Web, token: string, failure?: Failure): Html {
  return html`<h1>Choose a new password</h1>${failureSummary(failure)}
${postForm(
  web,
  href(web, '/password/reset'),
  html`<input type="hidden" name="token" value="${token}">
${field({ name: 'password', label: 'New password', hint: `At least ${LIMITS.password.min} characters. Every session of yours ends.`, type: 'password', required: true, autocomplete: 'new-password' }, failure?.issues)}
<div class="actions"><button type="submit">Set the new password</button></div>`,
)}`;
}

export function passwordRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/password/forgot', (c) => {
    const web = c.get('web');
    return page(c, web, { title: 'Forgot your password?', body: forgotForm(web, {}) });
  });

  app.post('/password/forgot', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const asked = await call(deps, web, requestPasswordReset, formArgs(requestPasswordReset, form));
    if (!asked.ok) {
      if (asked.retryAfterSeconds) c.header('retry-after', String(asked.retryAfterSeconds));
      return page(c, web, {
        title: 'Forgot your password?',
        status: statusOf(asked),
        body: forgotForm(web, form, asked),
      });
    }
    // The same answer whether or not the address has an account.
    return page(c, web, {
      title: 'Check your mail',
      body: html`<h1>Check your mail</h1><p>If ${asked.value.email} has an account here, a link to choose a new password is on its way; it works once, for one hour.</p><p><a href="${href(web, '/signin')}">Back to sign in</a></p>`,
    });
  });

  app.get('/password/reset', (c) => {
    const web = c.get('web');
    // The token's URL reaches no other origin (Referrer-Policy same-origin, every page's). Not
    // no-referrer: the browser would then post the form with Origin null, which is refused.
    return page(c, web, {
      title: 'Choose a new password',
      body: resetForm(web, c.req.query('token') ?? ''),
    });
  });

  app.post('/password/reset', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const reset = await call(deps, web, resetPassword, formArgs(resetPassword, form));
    if (!reset.ok) {
      if (reset.retryAfterSeconds) c.header('retry-after', String(reset.retryAfterSeconds));
      return page(c, web, {
        title: 'Choose a new password',
        status: statusOf(reset),
        body: resetForm(web, text(form, 'token'), reset),
      });
    }
    return redirectWith(c, deps, href(web, '/signin'), {
      kind: 'ok',
      text: `Your password was changed and every session of yours ended: sign in as ${reset.value.email} with the new one.`,
    });
  });
}
