// Moderators on the web, as plain forms that work without JavaScript: the topic page's moderator
// controls (close, reopen, lock, pin, move, tags, close as a duplicate, restore), confirmation
// pages for what destroys or merges (GET asks "Delete this topic? [Delete] [Cancel]" with a reason
// field, POST does it), the notices readers see (closed as a duplicate of …, also asked as …,
// locked, merged into …; moderators: deleted by X: why), and the moderation log (/moderation).
import type { Context, Hono } from 'hono';
import { roleAtLeast } from '../../domain/authorization.ts';
import type { ModeratorAction } from '../../domain/moderator-actions.ts';
import { getTopic } from '../../operations/community.ts';
import * as m from '../../operations/moderator-actions.ts';
import type { AnyOperation, OutputOf } from '../../operations/operation.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { field, text, type FormData } from '../forms.ts';
import { postForm, roleHere, when } from '../html.ts';
import { failurePage, needsPerson, notFound, page, redirectWith } from '../respond.ts';
import { topicHref, type Post, type Topic } from './parts.ts';
import { html, joinHtml, type Html } from '../template.ts';

type TopicPage = OutputOf<typeof getTopic>;

export const isModerator = (web: Web): boolean => roleAtLeast(roleHere(web), 'moderator');

/** What readers are told about the topic's moderation, above its posts. */
export function moderationNotices(web: Web, got: TopicPage): Html {
  const t = got.topic;
  const out: Html[] = [];
  if (t.deleted)
    out.push(
      html`<p class="notice error">Deleted by ${t.deleted.by}: ${t.deleted.reason} (${when(t.deleted.at)}). Only moderators see it.</p>`,
    );
  if (got.duplicate_of)
    out.push(
      html`<p class="notice">Closed as a duplicate of <a href="${topicHref(web, slugOf(got.duplicate_of.url))}">${got.duplicate_of.title}</a>: the answer is there.</p>`,
    );
  if (t.merged_into)
    out.push(
      html`<p class="notice">Merged into <a href="${topicHref(web, t.merged_into)}">another topic</a>: its posts are there now.</p>`,
    );
  if (t.locked)
    out.push(html`<p class="notice">Locked by a moderator: no new replies and no edits.</p>`);
  if (got.duplicates?.length)
    out.push(
      html`<p class="meta">Also asked as: ${joinHtml(
        got.duplicates.map((d) => html`<a href="${topicHref(web, slugOf(d.url))}">${d.title}</a>`),
        ', ',
      )}</p>`,
    );
  return joinHtml(out, '\n');
}

/**
 * A deleted post's notice (moderators only are shown deleted posts) and its moderator controls;
 * undefined where there are none (not a moderator, or the question).
 */
export function postModeration(
  web: Web,
  topic: Topic,
  post: Post & { deleted?: { by: string; reason: string } },
): Html | undefined {
  if (!isModerator(web) || post.is_question) return undefined;
  if (post.deleted)
    return html`<p class="notice error">Deleted by ${post.deleted.by}: ${post.deleted.reason}.</p>${postForm(web, href(web, `/t/${topic.slug}/restore-post/${post.id}`), html`<button type="submit" class="secondary">Restore this reply</button>`, html`class="inline"`)}`;
  return html`<a href="${href(web, `/t/${topic.slug}/delete-post/${post.id}`)}">Delete<span class="visually-hidden"> this reply</span>…</a>`;
}

const slugOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/t/')[1] ?? '');

function action(web: Web, topic: Topic, name: string, label: string): Html {
  return postForm(
    web,
    href(web, `/t/${topic.slug}/moderate/${name}`),
    html`<button type="submit" class="secondary">${label}</button>`,
    html`class="inline"`,
  );
}

/** The moderator controls under a topic: one small form per action. */
export function moderatorPanel(web: Web, topic: Topic): Html {
  if (!isModerator(web)) return html``;
  if (topic.deleted)
    return html`<section aria-labelledby="moderate"><h2 id="moderate">Moderate</h2>${action(web, topic, 'restore', 'Restore this topic')}</section>`;
  const toggles = [
    topic.status === 'closed'
      ? action(web, topic, 'reopen', 'Reopen')
      : action(web, topic, 'close', 'Close'),
    topic.locked ? action(web, topic, 'unlock', 'Unlock') : action(web, topic, 'lock', 'Lock'),
    topic.pinned ? action(web, topic, 'unpin', 'Unpin') : action(web, topic, 'pin', 'Pin'),
  ];
  const one = (name: string, label: string, f: Parameters<typeof field>[0]) =>
    postForm(
      web,
      href(web, `/t/${topic.slug}/moderate/${name}`),
      html`${field(f)}<div class="actions"><button type="submit" class="secondary">${label}</button></div>`,
    );
  return html`<section aria-labelledby="moderate"><h2 id="moderate">Moderate</h2>
<div class="actions">${joinHtml(toggles, ' ')}</div>
${one('move', 'Move', { name: 'category', id: 'moderate-category', label: 'Move to category (slug)', value: topic.category.slug, required: true })}
${one('tags', 'Save tags', { name: 'tags', id: 'moderate-tags', label: 'Tags', hint: 'Separated by commas.', value: topic.tags.join(', ') })}
${one('duplicate', 'Close as duplicate', { name: 'of', id: 'moderate-of', label: 'Duplicate of (the original topic, slug or id)', required: true })}
<p><a href="${href(web, `/t/${topic.slug}/merge`)}">Merge into another topic…</a> · <a href="${href(web, `/t/${topic.slug}/delete`)}">Delete this topic…</a> · <a href="${href(web, '/moderation')}">Moderation log</a></p></section>`;
}

const SIMPLE: Record<string, { op: AnyOperation; action: ModeratorAction; done: string }> = {
  close: { op: m.closeTopic, action: 'close', done: 'The topic is closed.' },
  reopen: { op: m.reopenTopic, action: 'reopen', done: 'The topic is open again.' },
  lock: { op: m.lockTopic, action: 'lock', done: 'The topic is locked.' },
  unlock: { op: m.unlockTopic, action: 'unlock', done: 'The topic is unlocked.' },
  pin: { op: m.pinTopic, action: 'pin', done: 'The topic is pinned.' },
  unpin: { op: m.unpinTopic, action: 'unpin', done: 'The topic is unpinned.' },
  restore: { op: m.restoreTopic, action: 'restore', done: 'The topic is restored.' },
  move: { op: m.moveTopic, action: 'move', done: 'The topic was moved.' },
  tags: { op: m.setTopicTags, action: 'tags', done: 'The tags were saved.' },
  duplicate: { op: m.markDuplicate, action: 'duplicate', done: 'Closed as a duplicate.' },
};

function argsOf(name: string, slug: string, form: FormData): Record<string, unknown> {
  const args: Record<string, unknown> = { topic: slug };
  const reason = text(form, 'reason');
  if (reason) args.reason = reason;
  if (name === 'move') args.category = text(form, 'category');
  if (name === 'duplicate') args.of = text(form, 'of');
  if (name === 'tags')
    args.tags = text(form, 'tags')
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean);
  return args;
}

/** A confirmation page: the question, a reason field, [verb] and [Cancel]; POST to the same address does it. */
function confirmPage(
  c: Context<WebEnv>,
  web: Web,
  o: {
    title: string;
    question: string;
    verb: string;
    cancel: string;
    extra?: Html;
    error?: string;
  },
): Response {
  const body = html`<h1>${o.title}</h1><p>${o.question}</p>${o.error ? html`<p class="notice error" role="alert">${o.error}</p>` : ''}
${postForm(
  web,
  c.req.path,
  html`${o.extra}${field({ name: 'reason', id: 'confirm-reason', label: 'Reason', hint: 'Shown in the moderation log and to other moderators.', rows: 3, required: true })}
<div class="actions"><button type="submit" class="danger">${o.verb}</button> <a class="button secondary" href="${o.cancel}">Cancel</a></div>`,
)}`;
  return page(c, web, { title: o.title, body, status: o.error ? 400 : 200 });
}

export function topicModerationRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.post('/t/:slug/moderate/:action', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const chosen = SIMPLE[c.req.param('action')];
    if (!chosen) return notFound(c, web);
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const done = await call(deps, web, chosen.op, argsOf(chosen.action, slug, form));
    if (!done.ok) return failurePage(c, web, done, 'Not done');
    return redirectWith(c, deps, topicHref(web, slug), { kind: 'ok', text: chosen.done });
  });

  const topicOf = async (c: Context<WebEnv>) =>
    call(deps, c.get('web'), getTopic, { topic: c.req.param('slug')!, limit: 1 });

  app.get('/t/:slug/delete', async (c) => {
    const web = c.get('web');
    const got = await topicOf(c);
    if (!got.ok) return failurePage(c, web, got);
    return (
      needsPerson(c, web) ??
      confirmPage(c, web, {
        title: 'Delete this topic?',
        question: `“${got.value.topic.title}” will be hidden from visitors, agents and search. Moderators can still see and restore it.`,
        verb: 'Delete',
        cancel: topicHref(web, got.value.topic.slug),
      })
    );
  });
  app.post('/t/:slug/delete', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const done = await call(deps, web, m.deleteTopic, {
      topic: slug,
      reason: text(form, 'reason'),
    });
    if (!done.ok) return failurePage(c, web, done, 'Not deleted');
    return redirectWith(c, deps, topicHref(web, slug), {
      kind: 'ok',
      text: 'The topic is deleted.',
    });
  });

  app.get('/t/:slug/merge', async (c) => {
    const web = c.get('web');
    const got = await topicOf(c);
    if (!got.ok) return failurePage(c, web, got);
    return (
      needsPerson(c, web) ??
      confirmPage(c, web, {
        title: 'Merge this topic?',
        question: `Every post of “${got.value.topic.title}” moves to the end of the topic you name; this one is left closed, pointing there.`,
        verb: 'Merge',
        cancel: topicHref(web, got.value.topic.slug),
        extra: field({
          name: 'into',
          id: 'merge-into',
          label: 'Merge into (the topic’s slug or id)',
          required: true,
        }),
      })
    );
  });
  app.post('/t/:slug/merge', async (c) => {
    const web = c.get('web');
    const slug = c.req.param('slug');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const done = await call(deps, web, m.mergeTopic, {
      topic: slug,
      into: text(form, 'into'),
      reason: text(form, 'reason'),
    });
    if (!done.ok) return failurePage(c, web, done, 'Not merged');
    return redirectWith(c, deps, topicHref(web, text(form, 'into')), {
      kind: 'ok',
      text: 'The topics are merged.',
    });
  });

  app.get('/t/:slug/delete-post/:post', async (c) => {
    const web = c.get('web');
    const got = await topicOf(c);
    if (!got.ok) return failurePage(c, web, got);
    return (
      needsPerson(c, web) ??
      confirmPage(c, web, {
        title: 'Delete this reply?',
        question: `The reply will be hidden from visitors, agents and search in “${got.value.topic.title}”. Moderators can still see and restore it.`,
        verb: 'Delete',
        cancel: topicHref(web, got.value.topic.slug, c.req.param('post')),
      })
    );
  });
  app.post('/t/:slug/delete-post/:post', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const done = await call(deps, web, m.deletePost, {
      post: c.req.param('post'),
      reason: text(form, 'reason'),
    });
    if (!done.ok) return failurePage(c, web, done, 'Not deleted');
    return redirectWith(c, deps, topicHref(web, c.req.param('slug')), {
      kind: 'ok',
      text: 'The reply is deleted.',
    });
  });
  app.post('/t/:slug/restore-post/:post', async (c) => {
    const web = c.get('web');
    const done = await call(deps, web, m.restorePost, { post: c.req.param('post') });
    if (!done.ok) return failurePage(c, web, done, 'Not restored');
    return redirectWith(c, deps, topicHref(web, c.req.param('slug'), c.req.param('post')), {
      kind: 'ok',
      text: 'The reply is restored.',
    });
  });

  app.get('/moderation', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const denied = needsPerson(c, web);
    if (denied) return denied;
    const listed = await call(deps, web, m.listModerationLog, {
      cursor: c.req.query('cursor') || undefined,
      limit: 50,
    });
    if (!listed.ok) return failurePage(c, web, listed);
    const rows = listed.value.entries.map(
      (e) =>
        html`<tr><td>${when(e.created_at)}</td><td>${e.by.name}${e.by.kind === 'agent' ? ' (agent)' : ''}</td><td>${e.action.replace('_', ' ')}</td><td>${e.topic_id ? html`<a href="${topicHref(web, e.topic_id, e.post_id ?? undefined)}">${e.target}</a>` : e.target}${e.detail ? html` <span class="meta">${e.detail}</span>` : ''}</td><td>${e.reason}</td></tr>`,
    );
    const more = listed.value.next_cursor
      ? html`<p><a href="${`${href(web, '/moderation')}?cursor=${encodeURIComponent(listed.value.next_cursor)}`}">Older actions</a></p>`
      : '';
    const body = html`<h1>Moderation log</h1>${
      rows.length
        ? html`<table><caption class="visually-hidden">Moderator actions, newest first</caption><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Target</th><th scope="col">Reason</th></tr></thead><tbody>${rows}</tbody></table>`
        : html`<p>No moderator action yet.</p>`
    }${more}`;
    return page(c, web, { title: 'Moderation log', body });
  });
}
