// Page numbers under a paged list or topic: first, previous, the pages around this one, next and
// last, "Page 2 of 5" with the count, as plain links (rel="prev" and rel="next") that work without
// JavaScript. A page is `?page=N` on the same path, the other query parameters kept.
import { href, type Web } from '../context.ts';
import { plural } from '../html.ts';
import { html, type Html } from '../template.ts';

/** The page a request asks for (`?page=N`): 1 when absent or not a page number. */
export function pageOf(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

export type PagerSpec = {
  path: string;
  params?: Record<string, string | undefined>;
  page: number;
  perPage: number;
  /** How many in all; unknown (a filtered list): the pages go as far as `hasNext` says. */
  total?: number;
  hasNext?: boolean;
  /** What is counted: ["post", "posts"]. */
  noun: [string, string];
};

export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

export function pager(web: Web, s: PagerSpec): Html {
  const known = s.total !== undefined;
  const pages = known ? pageCount(s.total!, s.perPage) : s.page + (s.hasNext ? 1 : 0);
  const count = known ? plural(s.total!, s.noun[0], s.noun[1]) : '';
  if (pages <= 1 && s.page <= 1)
    return count ? html`<p class="meta pager-count">${count}</p>` : html``;
  const at = (n: number) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(s.params ?? {})) if (v) q.set(k, v);
    if (n > 1) q.set('page', String(n));
    const qs = q.toString();
    return href(web, s.path) + (qs ? `?${qs}` : '');
  };
  const link = (n: number, label: string, extra?: Html) =>
    html`<li><a href="${at(n)}"${extra}>${label}</a></li>`;
  const gap = html`<li aria-hidden="true">…</li>`;
  const items: Html[] = [];
  if (s.page > 1) {
    items.push(link(1, 'First'));
    items.push(link(s.page - 1, 'Previous', html` rel="prev"`));
  }
  const from = Math.max(1, s.page - 2);
  const to = Math.min(pages, s.page + 2);
  if (from > 1) items.push(gap);
  for (let n = from; n <= to; n++)
    items.push(
      n === s.page
        ? html`<li><a href="${at(n)}" aria-current="page">${n}</a></li>`
        : link(n, String(n), html` aria-label="Page ${n}"`),
    );
  if (known && to < pages) items.push(gap);
  if (s.page < pages) {
    items.push(link(s.page + 1, 'Next', html` rel="next"`));
    if (known) items.push(link(pages, 'Last'));
  }
  const where = known ? `Page ${Math.min(s.page, pages)} of ${pages} · ${count}` : `Page ${s.page}`;
  return html`<nav class="pager" aria-label="Pages"><p class="meta">${where}</p><ul>${items}</ul></nav>`;
}
