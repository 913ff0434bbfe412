// Webhooks for administrators, through the same operations REST and the CLI use: the community's
// endpoints (URL, events, on or off, how the last delivery went), adding one (its signing secret is
// shown once, on the answer to the form), removing one after a confirmation page of its own (no
// script needed), and each endpoint's recent delivery log.
import type { Context, Hono } from 'hono';
import { WEBHOOK_EVENTS } from '../../domain/webhooks/outbox.ts';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
} from '../../operations/webhooks.ts';
import type { OutputOf } from '../../operations/operation.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { checkboxes, checkedValues, failureSummary, field, text, type FormData } from '../forms.ts';
import { postForm, when } from '../html.ts';
import { failurePage, page, redirectWith } from '../respond.ts';
import { shownOnce } from './account.ts';
import { adminGate, adminNav, confirmPage } from './admin.ts';
import { html, joinHtml, type Html } from '../template.ts';

type Endpoint = OutputOf<typeof listWebhooks>['webhooks'][number];
type Delivery = OutputOf<typeof listWebhookDeliveries>['deliveries'][number];

const EVENT_OPTIONS = WEBHOOK_EVENTS.map((e) => ({ value: e, label: e }));
/** How many deliveries of each endpoint the page shows, newest first. */
const RECENT = 10;

const outcome = (d: Delivery): string =>
  [d.status, d.last_status !== null ? `HTTP ${d.last_status}` : '', d.last_error ?? '']
    .filter(Boolean)
    .join(' · ');

function endpointSection(web: Web, e: Endpoint, deliveries: Delivery[]): Html {
  const last = deliveries[0];
  const log = deliveries.length
    ? html`<div class="table-wrap"><table class="data cards"><caption class="meta">Recent deliveries to ${e.url}</caption><thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th></tr></thead><tbody>${deliveries.map(
        (d) =>
          html`<tr><td data-label="Time">${when(d.created_at)}</td><td data-label="Event"><code>${d.event}</code></td><td data-label="Status">${outcome(d)}</td><td data-label="Attempts">${d.attempts}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="meta">Nothing delivered yet.</p>`;
  return html`<section class="queued" aria-labelledby="hook-${e.id}"><h2 id="hook-${e.id}">${e.url}</h2>
<p class="meta">${e.active ? 'Active' : `Off${e.disabled_reason ? ` (${e.disabled_reason})` : ''}`} · events: ${joinHtml(
    e.events.map((v) => html`<code>${v}</code>`),
    ' ',
  )} · last delivery: ${last ? outcome(last) : 'none yet'}</p>
${e.description ? html`<p>${e.description}</p>` : ''}${log}
${postForm(web, href(web, '/admin/webhooks/delete'), html`<input type="hidden" name="webhook" value="${e.id}"><button type="submit" class="danger" aria-label="Delete the webhook ${e.url}">Delete</button>`, html`class="inline"`)}</section>`;
}

async function webhooksPage(
  c: Context<WebEnv>,
  deps: WebDeps,
  o: { secret?: string; failure?: Failure; values?: FormData } = {},
): Promise<Response> {
  const web = c.get('web');
  const listed = await call(deps, web, listWebhooks, {});
  if (!listed.ok) return failurePage(c, web, listed);
  const sections: Html[] = [];
  for (const e of listed.value.webhooks) {
    const log = await call(deps, web, listWebhookDeliveries, { webhook: e.id, limit: RECENT });
    if (!log.ok) return failurePage(c, web, log);
    sections.push(endpointSection(web, e, log.value.deliveries));
  }
  const values = o.values ?? {};
  const issues = o.failure?.issues;
  const checked = checkedValues(values, 'events');
  const body = html`<h1>Webhooks</h1>${adminNav(web, '/admin/webhooks')}${failureSummary(o.failure)}
${o.secret ? shownOnce(o.secret, 'The signing secret of the new webhook: the receiver checks each delivery’s signature with it.') : ''}
${sections.length ? sections : html`<p>No webhooks yet.</p>`}
<h2>Add a webhook</h2>
${postForm(
  web,
  href(web, '/admin/webhooks'),
  html`${field({ name: 'url', label: 'URL', hint: 'Where to send events: a public http:// or https:// address.', value: text(values, 'url'), required: true }, issues)}
${checkboxes('events', 'Events to send', EVENT_OPTIONS, checked, issues)}
${field({ name: 'description', label: 'What it is for (optional)', value: text(values, 'description') }, issues)}
<div class="actions"><button type="submit">Add webhook</button></div>`,
)}`;
  if (o.secret) c.header('cache-control', 'no-store');
  return page(c, web, { title: 'Webhooks', body, status: o.failure ? 400 : 200 });
}

export function webhookAdminRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/admin/webhooks', (c) => adminGate(c) ?? webhooksPage(c, deps));

  app.post('/admin/webhooks', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const events = checkedValues(form, 'events');
    const description = text(form, 'description').trim();
    const created = await call(deps, web, createWebhook, {
      url: text(form, 'url').trim(),
      events,
      ...(description ? { description } : {}),
    });
    if (!created.ok)
      return created.code === 'invalid_argument' || created.code === 'conflict'
        ? webhooksPage(c, deps, { failure: created, values: form })
        : failurePage(c, web, created);
    return webhooksPage(c, deps, { secret: created.value.secret });
  });

  app.post('/admin/webhooks/delete', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const webhook = text(form, 'webhook');
    // Deleting asks first (confirmPage), without JavaScript.
    if (text(form, 'confirm') !== 'yes') {
      const listed = await call(deps, web, listWebhooks, {});
      if (!listed.ok) return failurePage(c, web, listed);
      const url = listed.value.webhooks.find((e) => e.id === webhook)?.url ?? 'this webhook';
      return confirmPage(
        c,
        '/admin/webhooks',
        '/admin/webhooks/delete',
        { webhook },
        {
          title: 'Delete this webhook?',
          text: `Nothing more is sent to ${url}, and its delivery log is removed with it.`,
          yes: 'Yes, delete the webhook',
        },
      );
    }
    const deleted = await call(deps, web, deleteWebhook, { webhook });
    if (!deleted.ok) return failurePage(c, web, deleted);
    return redirectWith(c, deps, href(web, '/admin/webhooks'), {
      kind: 'ok',
      text: 'The webhook was deleted: nothing more is sent to it.',
    });
  });
}
