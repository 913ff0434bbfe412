// The community's mail, for its administrators: whether this Hamlet sends mail (and where), the
// queue of the community's mails (sent, pending, failed and why, with "send again"), sending a
// member a password reset link, and whether unverified accounts may post here.
import type { Hono } from 'hono';
import {
  listMailQueue,
  retryMail,
  sendPasswordReset,
  setUnverifiedPosting,
} from '../../operations/mail-admin.ts';
import type { OutputOf } from '../../operations/operation.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, type FormData } from '../forms.ts';
import { postForm, when } from '../html.ts';
import { failurePage, page, redirectWith } from '../respond.ts';
import { adminGate, adminNav } from './admin.ts';
import { html, type Html } from '../template.ts';

type Queue = OutputOf<typeof listMailQueue>;

function queueTable(web: Web, q: Queue): Html {
  if (!q.mails.length) return html`<p>No mail yet.</p>`;
  const rows = q.mails.map((m) => {
    const state =
      m.status === 'sent'
        ? html`sent ${when(m.sent_at ?? m.created_at)}`
        : m.status === 'pending'
          ? html`pending (attempt ${m.attempts + 1}${m.next_attempt_at ? html`, ${when(m.next_attempt_at)}` : ''})`
          : 'failed';
    const again =
      m.status === 'sent'
        ? ''
        : postForm(
            web,
            href(web, '/admin/mail/retry'),
            html`<input type="hidden" name="id" value="${m.id}"><button type="submit">Send again</button>`,
            html`class="inline"`,
          );
    return html`<tr><td data-label="Queued">${when(m.created_at)}</td><td data-label="To">${m.to}</td><td data-label="Subject">${m.subject}<br><span class="meta">${m.kind}</span></td><td data-label="State">${state}${m.last_error ? html`<br><span class="meta">${m.last_error}</span>` : ''}</td><td${again ? html` data-label="Action"` : ''}>${again}</td></tr>`;
  });
  return html`<div class="table-wrap"><table class="data cards"><caption class="meta">Mails of this community, newest first</caption><thead><tr><th scope="col">Queued</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">State</th><th scope="col"><span class="meta">Action</span></th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function mailPage(web: Web, q: Queue, failure?: Failure): Html {
  const state = q.mail_enabled
    ? html`<p>Mail is on: it goes to <code>${q.transport}</code>, from <code>${q.from}</code>.</p>`
    : html`<div class="notice" role="status"><p>Mail is off: ${q.transport}. Set <code>HAMLET_SMTP_URL</code> to turn it on.</p></div>`;
  const c = q.counts;
  return html`<h1>Mail</h1>${adminNav(web, '/admin/mail')}${failureSummary(failure, { email: "Member's e-mail address" })}${state}
<p>${c.sent} sent, ${c.pending} pending, ${c.failed} failed.</p>
${queueTable(web, q)}
<h2>Send a password reset link</h2>
${postForm(
  web,
  href(web, '/admin/mail/reset'),
  html`${field({ name: 'email', label: "Member's e-mail address", type: 'email', required: true }, failure?.issues)}
<div class="actions"><button type="submit">Send the link</button></div>`,
)}
<h2>Unconfirmed addresses</h2>
<p>${q.unverified_may_post ? 'People who have not confirmed their e-mail address may post here.' : 'People must confirm their e-mail address before they post here (they can read and sign in meanwhile).'}</p>
${postForm(
  web,
  href(web, '/admin/mail/unverified'),
  html`<input type="hidden" name="allowed" value="${q.unverified_may_post ? 'false' : 'true'}"><button type="submit">${q.unverified_may_post ? 'Require a confirmed address' : 'Let unconfirmed accounts post'}</button>`,
)}`;
}

export function mailAdminRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const show = async (c: Parameters<typeof adminGate>[0], failure?: Failure, status = 200) => {
    const web = c.get('web');
    const q = await call(deps, web, listMailQueue, {
      ...(c.req.query('status') ? { status: c.req.query('status') } : {}),
    });
    if (!q.ok) return failurePage(c, web, q);
    return page(c, web, { title: 'Mail', body: mailPage(web, q.value, failure), status });
  };

  app.get('/admin/mail', async (c) => adminGate(c) ?? show(c));

  app.post('/admin/mail/retry', async (c) => {
    const gate = adminGate(c);
    if (gate) return gate;
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const done = await call(deps, web, retryMail, formArgs(retryMail, form));
    if (!done.ok) return failurePage(c, web, done);
    return redirectWith(c, deps, href(web, '/admin/mail'), {
      kind: 'ok',
      text: 'The mail is due again; it keeps its Message-ID.',
    });
  });

  app.post('/admin/mail/reset', async (c) => {
    const gate = adminGate(c);
    if (gate) return gate;
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const sent = await call(deps, web, sendPasswordReset, formArgs(sendPasswordReset, form));
    if (!sent.ok) return show(c, sent, 400);
    return redirectWith(c, deps, href(web, '/admin/mail'), {
      kind: 'ok',
      text: `A password reset link is on its way to ${sent.value.email}.`,
    });
  });

  app.post('/admin/mail/unverified', async (c) => {
    const gate = adminGate(c);
    if (gate) return gate;
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const set = await call(deps, web, setUnverifiedPosting, formArgs(setUnverifiedPosting, form));
    if (!set.ok) return failurePage(c, web, set);
    return redirectWith(c, deps, href(web, '/admin/mail'), { kind: 'ok', text: 'Saved.' });
  });
}
