// The approval queue for moderators: each queued write shown as it would appear once published
// (the question or reply rendered, the answer to be accepted), approve, or reject with a reason the
// submitter reads. Two moderators deciding at once: one wins, the other is told who decided what.
import type { Context, Hono } from 'hono';
import { renderBody } from '../../domain/rendering.ts';
import { agentLabel } from '../../domain/views.ts';
import { APPROVAL_STATUSES } from '../../domain/vocabulary.ts';
import { approveWrite, listApprovals, rejectWrite } from '../../operations/approvals.ts';
import type { OutputOf } from '../../operations/operation.ts';
import type { Failure } from '../../operations/pipeline.ts';
import {
  call,
  href,
  statusOf,
  type Notice,
  type Web,
  type WebDeps,
  type WebEnv,
} from '../context.ts';
import { field, text, type FormData } from '../forms.ts';
import { postForm, when } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';
import { author, topicHref } from './parts.ts';
import { html, sanitizedHtml, type Html } from '../template.ts';

/** A queued write as list_approvals, approve and reject return it. */
type Approval = OutputOf<typeof listApprovals>['approvals'][number];

/** The queued write as readers would see it once published. */
function preview(web: Web, a: Approval): Html {
  // The payload is the write as submitted, of the shape its kind takes (src/domain/writes/).
  const p = (a.payload ?? {}) as Record<string, unknown>;
  const tags = Array.isArray(p.tags) ? (p.tags as unknown[]).map(String) : [];
  const body =
    typeof p.body === 'string'
      ? html`<div class="post-body preview">${sanitizedHtml(renderBody(p.body).html)}</div>`
      : '';
  const topicLink = (ref: string) => html`<a href="${topicHref(web, ref)}">${ref}</a>`;
  switch (a.kind) {
    case 'topic.create':
      return html`<p class="meta">New question in ${String(p.category)}${tags.length ? ` · tags: ${tags.join(', ')}` : ''}</p><h3>${String(p.title)}</h3>${body}`;
    case 'article.write':
      return html`<p class="meta">Article in ${String(p.category)}</p><h3>${String(p.title)}</h3>${body}`;
    case 'post.create':
      return html`<p class="meta">Reply to ${topicLink(String(p.topic))}</p>${body}`;
    case 'solution.mark':
      return html`<p>Accept the post <a href="${topicHref(web, String(p.topic), String(p.post))}">${String(p.post)}</a> as the answer of ${topicLink(String(p.topic))}.</p>`;
    default:
      return html`<pre>${JSON.stringify(p, null, 2)}</pre>`;
  }
}

/** One queued write; `why` (the review queue's) says why it is there, under its first line. */
export function approvalCard(web: Web, a: Approval, why?: string): Html {
  const slug = web.where.kind === 'community' ? web.where.community.slug : '';
  const who = author(web, {
    ...a.submitted_by,
    label: a.submitted_by.kind === 'agent' ? agentLabel(a.submitted_by.name, slug) : undefined,
  });
  const decided = a.decided_by
    ? html`<p class="meta">${a.status} by ${a.decided_by.name}${a.decided_at ? html` · ${when(a.decided_at)}` : ''}${a.reason ? `: ${a.reason}` : ''}</p>`
    : '';
  const published = a.result?.topic
    ? html`<p><a href="${topicHref(web, a.result.topic.slug, a.result.post?.id)}">See it published</a></p>`
    : '';
  const decide =
    a.status === 'pending'
      ? html`<div class="actions">${postForm(web, href(web, `/approvals/${a.approval_id}/approve`), html`<button type="submit">Approve and publish</button>`, html`class="inline"`)}</div>
${postForm(web, href(web, `/approvals/${a.approval_id}/reject`), html`${field({ name: 'reason', id: `reason-${a.approval_id}`, label: 'Reason for rejecting', hint: 'The submitter reads it.', rows: 2, required: true })}<div class="actions"><button type="submit" class="danger">Reject</button></div>`)}`
      : '';
  return html`<section class="queued" id="approval-${a.approval_id}" aria-label="${a.kind} by ${a.submitted_by.name}"><p class="meta">${who} · submitted ${when(a.submitted_at)} · <span class="badge pending">${a.status}</span></p>${why === undefined ? '' : html`<p class="why">Why it is here: ${why}</p>`}
${preview(web, a)}${decided}${published}${decide}</section>`;
}

async function queuePage(
  c: Context<WebEnv>,
  deps: WebDeps,
  o: { notice?: Notice; status?: number } = {},
): Promise<Response> {
  const web = c.get('web');
  if (web.where.kind !== 'community') return notFound(c, web);
  const status = c.req.query('status') || 'pending';
  const listed = await call(deps, web, listApprovals, {
    status,
    cursor: c.req.query('cursor') || undefined,
  });
  if (!listed.ok) return failurePage(c, web, listed);
  const approvals = listed.value.approvals;
  const tabs = APPROVAL_STATUSES.filter((s) => s !== 'approved').map(
    (s) =>
      html`<li><a href="${`${href(web, '/approvals')}?status=${s}`}"${s === status ? html` aria-current="page"` : ''}>${s}</a></li>`,
  );
  const more = listed.value.next_cursor
    ? html`<p><a href="${`${href(web, '/approvals')}?status=${status}&cursor=${encodeURIComponent(listed.value.next_cursor)}`}">More</a></p>`
    : '';
  const body = html`<h1>Approval queue</h1><nav aria-label="Status"><ul class="tabs">${tabs}</ul></nav>
${approvals.length ? approvals.map((a) => approvalCard(web, a)) : html`<p>No ${status} writes.</p>`}${more}`;
  return page(c, web, { title: 'Approval queue', body, notice: o.notice, status: o.status });
}

/** A decision that lost (or failed): the queue again, with why. */
function refused(c: Context<WebEnv>, deps: WebDeps, f: Failure): Promise<Response> | Response {
  if (f.code === 'conflict' || f.code === 'invalid_argument')
    return queuePage(c, deps, { notice: { kind: 'error', text: f.message }, status: statusOf(f) });
  return failurePage(c, c.get('web'), f, 'Not decided');
}

export function approvalRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/approvals', (c) => needsPerson(c, c.get('web')) ?? queuePage(c, deps));

  app.post('/approvals/:id/approve', async (c) => {
    const web = c.get('web');
    const decided = await call(deps, web, approveWrite, {
      approval_id: c.req.param('id'),
    });
    if (!decided.ok) return refused(c, deps, decided);
    const a = decided.value;
    const text =
      a.status === 'applied'
        ? 'Approved: it is published now.'
        : `Approved, but it could not be applied: ${a.reason ?? a.message}`;
    return redirectWith(c, deps, href(web, '/approvals'), {
      kind: a.status === 'applied' ? 'ok' : 'error',
      text,
    });
  });

  app.post('/approvals/:id/reject', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const decided = await call(deps, web, rejectWrite, {
      approval_id: c.req.param('id'),
      reason: text(form, 'reason'),
    });
    if (!decided.ok) return refused(c, deps, decided);
    return redirectWith(c, deps, href(web, '/approvals'), {
      kind: 'ok',
      text: 'Rejected: the submitter sees your reason. Nothing was published.',
    });
  });
}
