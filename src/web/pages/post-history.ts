// An edited post's history (/t/<topic>/history/<post>, list_post_revisions): each version newest
// first, with who wrote it and when, the words changed since the version before (title and body:
// ../diff.ts) and its full text; a post edited before versions were kept says its earlier ones are
// lost. The article history (./topic-edit.ts) shows its revisions' changes the same way.
import type { Hono } from 'hono';
import { listPostRevisions } from '../../operations/people.ts';
import type { OutputOf } from '../../operations/operation.ts';
import { call, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { changed, diffHtml, wordDiff } from '../diff.ts';
import { when } from '../html.ts';
import { html, type Html } from '../template.ts';
import { failurePage, notFound, page } from '../respond.ts';
import { author, topicHref, type Author } from './parts.ts';

type Version = OutputOf<typeof listPostRevisions>['revisions'][number];

/** How the marks read, once above the versions. */
export const DIFF_LEGEND = html`<p class="meta diff-legend">Changes from the version before: <del>removed words</del> are struck through, <ins>added words</ins> are underlined.</p>`;

/** What changed from `prev` to `cur`: the title (when it did) and the body, or that nothing did. */
export function versionChanges(
  prev: { title: string | null; body: string },
  cur: { title: string | null; body: string },
): Html {
  const title =
    prev.title !== null &&
    cur.title !== null &&
    prev.title !== cur.title &&
    html`<p class="diff-title"><strong>Title:</strong> ${diffHtml(wordDiff(prev.title, cur.title), 'span')}</p>`;
  const body = wordDiff(prev.body, cur.body);
  return html`${title}${
    changed(body)
      ? diffHtml(body)
      : html`<p class="meta">${title ? 'The text did not change.' : 'Nothing changed but the spacing.'}</p>`
  }`;
}

/** One version: heading, author and time, its changes (after the first), and its full text. */
export function versionSection(
  web: Web,
  v: { revision: number; title: string | null; body: string; author: Author; created_at: string },
  prev: { title: string | null; body: string } | undefined,
  noun: string,
  fullText: Html,
): Html {
  const id = `v-${v.revision}`;
  const changes = prev
    ? versionChanges(prev, v)
    : html`<p class="meta">The first ${noun} kept.</p>`;
  return html`<section class="queued version" aria-labelledby="${id}"><h2 id="${id}">${noun[0]!.toUpperCase()}${noun.slice(1)} ${v.revision}${v.title ? `: ${v.title}` : ''}</h2><p class="meta">${author(web, v.author)} · ${when(v.created_at)}</p>${changes}<details><summary>The full text of ${noun} ${v.revision}</summary>${fullText}</details></section>`;
}

function historyBody(web: Web, h: OutputOf<typeof listPostRevisions>): Html {
  const what = h.post.position === 1 ? 'question' : 'reply';
  const versions: Version[] = h.revisions;
  const lost = h.complete
    ? ''
    : html`<p class="notice">This ${what} was edited before its versions were kept: the earlier ones are lost, and its history starts with the version it had on ${when(versions[0]!.created_at)}.</p>`;
  const items = versions
    .map((v, i) =>
      versionSection(
        web,
        v,
        versions[i - 1],
        'version',
        html`<div class="version-text">${v.body}</div>`,
      ),
    )
    .reverse();
  const count = versions.length === 1 ? 'one version' : `${versions.length} versions`;
  return html`<h1>History of the ${what}</h1><p class="meta">In <a href="${topicHref(web, h.topic.slug, h.post.id)}">${h.topic.title}</a> · ${count}, newest first</p>${lost}${versions.length > 1 ? DIFF_LEGEND : ''}${items}`;
}

export function postHistoryRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/t/:slug/history/:post', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const got = await call(deps, web, listPostRevisions, { post: c.req.param('post') });
    if (!got.ok) return failurePage(c, web, got);
    // The slug only makes the address: the post's topic is the one that holds it now.
    return page(c, web, { title: 'History', body: historyBody(web, got.value) });
  });
}
