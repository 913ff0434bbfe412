// Moderation on the web: the one review queue (/review: queued writes and flagged posts, each with
// why it is there; /approvals keeps working for the queued writes alone), the flag form under
// each post of a topic, and the notice moderators see above a hidden post with the way to show it
// again. Every decision runs the catalogue's operations, so the web says what MCP and REST say.
import type { Context, Hono } from 'hono';
import { renderBody } from '../../domain/rendering.ts';
import { FLAG_REASONS } from '../../domain/moderation/vocabulary.ts';
import {
  decideReview,
  flagPost,
  liftSanction,
  myQueuedReplies,
  listSanctions,
  reviewQueue,
  sanctionMember,
} from '../../operations/moderation.ts';
import { LIMITS } from '../../domain/fields.ts';
import type { OutputOf } from '../../operations/operation.ts';
import { call, href, type Notice, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { field, text, type FormData } from '../forms.ts';
import { postForm, when } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';
import { approvalCard } from './approvals.ts';
import { author, topicHref, type ShownPost, type Topic } from './parts.ts';
import { html, joinHtml, sanitizedHtml, type Html } from '../template.ts';
import { endTime } from '../sanction-notice.ts';
import { readableTime } from '../../domain/moderation/sanctions.ts';

type Item = OutputOf<typeof reviewQueue>['items'][number];

const REASON_LABELS: Record<(typeof FLAG_REASONS)[number], string> = {
  spam: 'Spam',
  off_topic: 'Off topic',
  inappropriate: 'Inappropriate',
  wrong_or_outdated: 'Wrong or outdated answer',
  other: 'Something else (say what in the note)',
};

/** The flag form under a post (not under one's own): a reason, a note, one button. */
export function flagControl(web: Web, topic: Topic, p: ShownPost, role: string): Html {
  const id = `flag-${p.id}`;
  return html`<details class="flag"><summary>Flag<span class="visually-hidden"> this ${role.toLowerCase()}</span></summary>${postForm(
    web,
    href(web, `/t/${topic.slug}/flag`),
    html`<input type="hidden" name="post" value="${p.id}">${field({ name: 'reason', id: `${id}-reason`, label: 'What is wrong with it?', options: FLAG_REASONS.map((r) => ({ value: r, label: REASON_LABELS[r] })), required: true })}${field({ name: 'note', id: `${id}-note`, label: 'Note for the moderators', hint: 'Optional, except for "something else".', rows: 2 })}<div class="actions"><button type="submit" class="secondary">Send flag</button></div>`,
  )}</details>`;
}

/**
 * The signed-in person's own replies to this topic that wait for a moderator ("awaiting approval",
 * with why) or were rejected (with the moderator's reason), shown in place after the posts.
 */
export async function awaitingApproval(deps: WebDeps, web: Web, topic: Topic): Promise<Html> {
  if (!web.person) return html``;
  const got = await call(deps, web, myQueuedReplies, { topic: topic.id });
  if (!got.ok || got.value.writes.length === 0) return html``;
  const cards = got.value.writes.map(({ approval: a, why }) => {
    const body = (a.payload as { body?: unknown } | null)?.body;
    const state =
      a.status === 'pending'
        ? html`<span class="badge pending">Awaiting approval</span> · ${why}`
        : html`<span class="badge">Not published</span> · ${a.message}`;
    return html`<article class="queued" id="approval-${a.approval_id}" aria-label="Your reply, ${a.status === 'pending' ? 'awaiting approval' : 'not published'}"><p class="meta">You · ${when(a.submitted_at)} · ${state}</p>${typeof body === 'string' ? html`<div class="post-body preview">${sanitizedHtml(renderBody(body).html)}</div>` : ''}</article>`;
  });
  return joinHtml(cards, '\n');
}

/** Above a hidden post, for moderators only (readers are not shown the post at all). */
export function hiddenBanner(web: Web, p: ShownPost): Html {
  const h = (
    p as ShownPost & { hidden?: { cause: string; note: string | null; by: string; at: string } }
  ).hidden;
  if (!h) return html``;
  const why = h.cause === 'flags' ? 'by flags from trusted members' : `by ${h.by}`;
  return html`<div class="notice error" role="note"><p>Hidden from readers ${why} · ${when(h.at)}${h.note ? `: ${h.note}` : ''}. Only moderators see it.</p>${postForm(
    web,
    href(web, `/review/flags/${p.id}/dismiss`),
    html`<button type="submit" class="secondary">Show it again</button>`,
    html`class="inline"`,
  )}</div>`;
}

/**
 * Suspend or silence one person or agent (on the admin pages of members and agents): how, for how
 * many days, and the reason they are shown. `back` is the page to return to.
 */
export function sanctionControl(
  web: Web,
  kind: 'person' | 'agent',
  id: string,
  name: string,
  back: string,
): Html {
  const f = `sanction-${id}`;
  return html`<details class="sanction"><summary>Suspend or silence<span class="visually-hidden"> ${name}</span></summary>${postForm(
    web,
    href(web, '/moderation/sanctions'),
    html`<input type="hidden" name="subject_kind" value="${kind}"><input type="hidden" name="subject" value="${id}"><input type="hidden" name="back" value="${back}">${field(
      {
        name: 'mode',
        id: `${f}-mode`,
        label: 'What',
        options: [
          { value: 'suspended', label: 'Suspend: no writing (an agent: its key refused)' },
          { value: 'silenced', label: 'Silence: may read, not write' },
        ],
      },
    )}${field({ name: 'days', id: `${f}-days`, label: 'For how many days', type: 'number', value: '7', required: true, attrs: html`min="${LIMITS.sanctionDays.min}" max="${LIMITS.sanctionDays.max}"` })}${field({ name: 'reason', id: `${f}-reason`, label: 'Reason', hint: `${name} is shown it, with the end time.`, rows: 2, required: true })}<div class="actions"><button type="submit" class="danger">Apply to ${name}</button></div>`,
  )}</details>`;
}

function flagCard(web: Web, i: Item): Html {
  const post = i.post!;
  const topic = i.topic!;
  const flags = (i.flags ?? []).map(
    (f) =>
      html`<li><strong>${f.reason}</strong> by ${f.by.name}${f.by.kind === 'agent' ? ' (agent)' : ''}${f.trusted ? ' · trusted' : ''} · ${when(f.at)}${f.note ? `: “${f.note}”` : ''}</li>`,
  );
  const decide = (decision: 'hide' | 'dismiss', label: string, cls: string) =>
    postForm(
      web,
      href(web, `/review/flags/${post.id}/${decision}`),
      html`${field({ name: 'reason', id: `${decision}-${post.id}`, label: decision === 'hide' ? 'Note to the author' : 'Note to the flaggers', hint: 'Optional.', rows: 2 })}<div class="actions"><button type="submit" class="${cls}">${label}</button></div>`,
    );
  return html`<section class="queued" id="flag-${post.id}" aria-label="Flagged post by ${post.author.name}"><p class="meta">${author(web, post.author)} in <a href="${topicHref(web, topic.slug, post.id)}">${topic.title}</a>${i.hidden ? html` · <span class="badge pending">hidden</span>` : ''}</p>
<p class="why">Why it is here: ${i.why}</p><ul class="flags">${flags}</ul>
<div class="post-body preview">${sanitizedHtml(renderBody(post.body).html)}</div>${decide('hide', 'Hide the post', 'danger')}${decide('dismiss', 'Keep it shown', 'secondary')}</section>`;
}

async function reviewPage(c: Context<WebEnv>, deps: WebDeps, notice?: Notice): Promise<Response> {
  const web = c.get('web');
  if (web.where.kind !== 'community') return notFound(c, web);
  const listed = await call(deps, web, reviewQueue, {});
  if (!listed.ok) return failurePage(c, web, listed);
  const items = listed.value.items;
  const cards = items.map((i) =>
    i.kind === 'approval' && i.approval ? approvalCard(web, i.approval, i.why) : flagCard(web, i),
  );
  const sanctions = await call(deps, web, listSanctions, {});
  const rows = sanctions.ok
    ? sanctions.value.sanctions.map(
        (s) =>
          html`<li>${s.subject.name}${s.subject.kind === 'agent' ? ' (agent)' : ''}: ${s.mode} until ${endTime(s.ends_at)} by ${s.by}: ${s.reason} ${postForm(web, href(web, '/moderation/sanctions/lift'), html`<input type="hidden" name="subject_kind" value="${s.subject.kind}"><input type="hidden" name="subject" value="${s.subject.id}"><button type="submit" class="secondary">Lift<span class="visually-hidden"> for ${s.subject.name}</span></button>`, html`class="inline"`)}</li>`,
      )
    : [];
  const body = html`<h1>Review queue</h1><p>Queued writes and flagged posts, oldest first. <a href="${href(web, '/approvals')}">Queued writes by status</a></p>
${cards.length ? cards : html`<p>Nothing to review.</p>`}${rows.length ? html`<h2>Suspended and silenced</h2><ul>${rows}</ul>` : ''}`;
  return page(c, web, { title: 'Review queue', body, notice });
}

/** Where a sanction's form returns: the page it was on (a profile, members, agents, review). */
function backTo(form: FormData, fallback: string): string {
  const back = text(form, 'back');
  return /^\/(admin\/(members|agents)|review|u\/[\w.-]{1,100})$/.test(back) ? back : fallback;
}

export function reviewRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/review', (c) => needsPerson(c, c.get('web')) ?? reviewPage(c, deps));

  app.post('/review/flags/:post/:decision{hide|dismiss}', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const note = text(form, 'reason');
    const decided = await call(deps, web, decideReview, {
      kind: 'flag',
      id: c.req.param('post'),
      decision: c.req.param('decision'),
      ...(note ? { reason: note } : {}),
    });
    if (!decided.ok) return failurePage(c, web, decided, 'Not decided');
    return redirectWith(c, deps, href(web, '/review'), {
      kind: 'ok',
      text: decided.value.flag?.message ?? 'Decided.',
    });
  });

  app.post('/moderation/sanctions', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const set = await call(deps, web, sanctionMember, {
      subject_kind: text(form, 'subject_kind'),
      subject: text(form, 'subject'),
      mode: text(form, 'mode'),
      days: Number(text(form, 'days')),
      reason: text(form, 'reason'),
    });
    if (!set.ok) return failurePage(c, web, set, 'Not applied');
    return redirectWith(c, deps, href(web, backTo(form, '/admin/members')), {
      kind: 'ok',
      text: `${set.value.subject.name} is ${set.value.mode} until ${readableTime(set.value.ends_at)}.`,
    });
  });

  app.post('/moderation/sanctions/lift', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const lifted = await call(deps, web, liftSanction, {
      subject_kind: text(form, 'subject_kind'),
      subject: text(form, 'subject'),
    });
    if (!lifted.ok) return failurePage(c, web, lifted, 'Not lifted');
    return redirectWith(c, deps, href(web, backTo(form, '/review')), {
      kind: 'ok',
      text: 'Lifted.',
    });
  });

  app.post('/t/:slug/flag', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const note = text(form, 'note');
    const flagged = await call(deps, web, flagPost, {
      post: text(form, 'post'),
      reason: text(form, 'reason'),
      ...(note ? { note } : {}),
    });
    if (!flagged.ok) return failurePage(c, web, flagged, 'The post was not flagged');
    return redirectWith(
      c,
      deps,
      topicHref(web, slug, flagged.value.hidden ? undefined : flagged.value.post_id),
      {
        kind: 'ok',
        text: flagged.value.message,
      },
    );
  });
}
