// E-mail links and the account's address: `/email/verify` (the sign-up confirmation link) and
// `/email/confirm` (a new address's link) show one button that spends the link (a mail scanner that
// fetches links spends nothing); `/mail/unsubscribe` turns a kind of notification mail off (the
// button, or a mail client's one-click POST, RFC 8058); `/account/email` asks to change the address
// and `/account/verify` for a new confirmation link, from the account page's e-mail section.
import type { Context, Hono } from 'hono';
import {
  changeEmail,
  confirmEmailChange,
  myEmail,
  resendVerification,
  unsubscribeMail,
  verifyEmail,
} from '../../operations/account-mail.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, statusOf, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { failurePage, needsPerson, page, redirectWith, safeNext } from '../respond.ts';
import { html, type Html } from '../template.ts';

/** The account page's e-mail section: the address, whether it is confirmed, and the change form. */
export async function emailSection(deps: WebDeps, web: Web, failure?: Failure): Promise<Html> {
  const me = await call(deps, web, myEmail, {});
  if (!me.ok) return html``;
  const { email, verified, mail_enabled, mail_off } = me.value;
  const state = !mail_enabled
    ? html`<p class="meta">This Hamlet sends no e-mail, so addresses are not confirmed here.</p>`
    : mail_off
      ? html`<p class="error">Mail to ${email} is off: it bounced ${mail_off.hard_bounces} times${mail_off.reason ? ` (last: ${mail_off.reason})` : ''}, so no notification mail is sent to it. Once the mailbox works again, confirm the address to turn mail back on.</p>${postForm(web, href(web, '/account/verify'), html`<button type="submit">Mail me a confirmation link</button>`, html`class="inline"`)}`
      : verified
        ? html`<p>Confirmed.</p>`
        : html`<p>Not confirmed yet: open the link we mailed you.</p>${postForm(web, href(web, '/account/verify'), html`<button type="submit">Mail me a new link</button>`, html`class="inline"`)}`;
  const change = mail_enabled
    ? html`${failureSummary(failure)}${postForm(
        web,
        href(web, '/account/email'),
        html`${field({ name: 'new_email', label: 'New e-mail address', type: 'email', required: true, autocomplete: 'email' }, failure?.issues)}
${field({ name: 'current_password', label: 'Current password', type: 'password', required: true, autocomplete: 'current-password' }, failure?.issues)}
<div class="actions"><button type="submit">Change address</button></div>`,
      )}`
    : '';
  return html`<h2>E-mail address</h2><p>You sign in with <strong>${email}</strong>.</p>${state}${change}`;
}

function spendPage(web: Web, action: string, title: string, button: string, token: string) {
  return html`<h1>${title}</h1>${postForm(
    web,
    href(web, action),
    html`<input type="hidden" name="token" value="${token}"><div class="actions"><button type="submit">${button}</button></div>`,
  )}`;
}

export function emailRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const spend = (
    path: string,
    title: string,
    button: string,
    op: typeof verifyEmail | typeof confirmEmailChange,
    done: (email: string) => string,
  ) => {
    app.get(path, (c) => {
      const web = c.get('web');
      // The token's URL reaches no other origin (Referrer-Policy same-origin, every page's). Not
      // no-referrer: the browser would then post the form with Origin null, which is refused.
      return page(c, web, {
        title,
        body: spendPage(web, path, title, button, c.req.query('token') ?? ''),
      });
    });
    app.post(path, async (c) => {
      const web = c.get('web');
      const form = (await c.req.parseBody({ all: true })) as FormData;
      const spent = await call(deps, web, op, formArgs(op, form));
      if (!spent.ok) return failurePage(c, web, spent);
      return page(c, web, {
        title,
        body: html`<h1>${title}</h1><p>${done(spent.value.email)}</p><p><a href="${href(web, web.person ? '/account' : '/signin')}">Continue</a></p>`,
      });
    });
  };
  spend(
    '/email/verify',
    'Confirm your e-mail address',
    'Confirm my address',
    verifyEmail,
    (email) => `Thank you: ${email} is confirmed.`,
  );
  spend(
    '/email/confirm',
    'Confirm your new e-mail address',
    'Confirm the new address',
    confirmEmailChange,
    (email) => `Done: you sign in with ${email} from now on.`,
  );

  app.get('/mail/unsubscribe', (c) => {
    const web = c.get('web');
    const q = (n: string) => c.req.query(n) ?? '';
    return page(c, web, {
      title: 'Unsubscribe',
      body: html`<h1>Stop these mails?</h1>${postForm(
        web,
        href(web, '/mail/unsubscribe'),
        html`<input type="hidden" name="p" value="${q('p')}"><input type="hidden" name="k" value="${q('k')}"><input type="hidden" name="s" value="${q('s')}"><div class="actions"><button type="submit">Unsubscribe</button></div>`,
      )}`,
    });
  });

  app.post('/mail/unsubscribe', async (c: Context<WebEnv>) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    // A mail client's one-click POST carries the link's parameters in the query, not the form.
    const args = {
      p: text(form, 'p') || c.req.query('p'),
      k: text(form, 'k') || c.req.query('k'),
      s: text(form, 's') || c.req.query('s'),
    };
    const done = await call(deps, web, unsubscribeMail, args);
    if (!done.ok) return failurePage(c, web, done);
    if (!done.value.unsubscribed)
      return page(c, web, {
        title: 'Unsubscribe',
        status: 400,
        body: html`<h1>This link is not valid</h1><p>Use the link of the mail exactly as it came, or change your mail settings on your account page.</p>`,
      });
    return page(c, web, {
      title: 'Unsubscribed',
      body: html`<h1>Unsubscribed</h1><p>You will get no more mails of this kind.</p>`,
    });
  });

  app.post('/account/verify', async (c) => {
    const web = c.get('web');
    const gate = needsPerson(c, web);
    if (gate) return gate;
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const sent = await call(deps, web, resendVerification, {});
    if (!sent.ok) return failurePage(c, web, sent);
    // Back where the button was (the account page, or a composer that told of the rule).
    return redirectWith(c, deps, safeNext(text(form, 'next'), href(web, '/account')), {
      kind: 'ok',
      text: `A new confirmation link is on its way to ${sent.value.email}.`,
    });
  });

  app.post('/account/email', async (c) => {
    const web = c.get('web');
    const gate = needsPerson(c, web);
    if (gate) return gate;
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const asked = await call(deps, web, changeEmail, formArgs(changeEmail, form));
    if (!asked.ok)
      return page(c, web, {
        title: 'Your account',
        status: statusOf(asked),
        body: html`<h1>Your account</h1>${await emailSection(deps, web, asked)}`,
      });
    return redirectWith(c, deps, href(web, '/account'), {
      kind: 'ok',
      text: `Open the link we mailed to ${asked.value.email} to finish the change; until then you sign in as before.`,
    });
  });
}
