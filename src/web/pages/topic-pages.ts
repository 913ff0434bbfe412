// A topic's pages: POSTS_PER_PAGE posts each by position (page N starts after post (N-1)·size), the
// page numbers below them, and when a page was cut short by its byte budget (very long posts), a
// link to the rest of that page by the cursor get_topic returned.
import type { Web } from '../context.ts';
import { moreLink, type ShownPost, type Topic } from './parts.ts';
import { pager } from './pager.ts';
import { html, type Html } from '../template.ts';

export const POSTS_PER_PAGE = 30;

export function topicPager(
  web: Web,
  topic: Topic,
  page: number,
  posts: ShownPost[],
  nextCursor: string | null,
  byCursor: boolean,
): Html {
  const total = topic.reply_count + 1;
  const first = posts[0]?.position ?? 1;
  const last = posts.at(-1)?.position ?? 0;
  // Reached by a cursor: the page is the one its first post falls on.
  const current = byCursor ? Math.ceil(first / POSTS_PER_PAGE) : page;
  const cut = nextCursor && last < Math.min(total, current * POSTS_PER_PAGE);
  const rest = cut && moreLink(web, `/t/${topic.slug}`, {}, nextCursor, 'More posts of this page');
  const pages = pager(web, {
    path: `/t/${topic.slug}`,
    page: current,
    perPage: POSTS_PER_PAGE,
    total,
    noun: ['post', 'posts'],
  });
  return html`${rest}${pages}`;
}
