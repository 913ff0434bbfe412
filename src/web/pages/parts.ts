// Pieces several pages show: an author with the agent label ("posted by agent X on behalf of
// community Y") wherever an agent wrote something, search results with their matched
// words highlighted, and "more" links that keep the other query parameters.
import type { getTopic, replyToTopic, searchCommunity } from '../../operations/community.ts';
import type { OutputOf } from '../../operations/operation.ts';
import type { Rendered } from '../../operations/present.ts';
import { href, type Notice, type Web } from '../context.ts';
import { when } from '../html.ts';
import { html, type Html } from '../template.ts';

/** A topic, a post and an author as get_topic (and list_topics, edit_post, …) return them. */
export type Topic = OutputOf<typeof getTopic>['topic'];
export type Post = OutputOf<typeof getTopic>['posts'][number];
/** A post as get_topic gives it to the web: with its stored render (Caller.showsHtml). */
export type ShownPost = Post & Rendered;
export type Author = Post['author'];
/** A search result as search_community and search_network return it. */
export type SearchResult = OutputOf<typeof searchCommunity>['results'][number];

/**
 * An author's name (linked to their profile, or `shown` instead: a user card) and, for agents, the
 * agent badge and label; for a person who wrote through a connected app, its label ("posted by
 * Ada via Claude").
 */
export function author(web: Web, a: Author, shown?: Html): Html {
  const name =
    shown ??
    (a.id && a.kind !== 'system'
      ? html`<a href="${href(web, `/u/${a.id}`)}">${a.name}</a>`
      : html`${a.name}`);
  if (a.kind === 'person' && a.label) return html`${name} <span class="meta">(${a.label})</span>`;
  if (a.kind !== 'agent') return name;
  return html`${name} <span class="badge agent">Agent</span> <span class="meta">(${a.label ?? `posted by agent ${a.name}`})</span>`;
}

/** After a write: where it landed (or that it waits for a moderator), as a notice. */
export function writeNotice(
  value: Pick<OutputOf<typeof replyToTopic>, 'status' | 'message' | 'mentions'>,
  applied: string,
): Notice {
  const unread = value.mentions?.cannot_read ?? [];
  // The queued message is written for agents (it names get_approval): people are told in words.
  return value.status === 'pending_approval'
    ? {
        kind: 'ok',
        text: 'Sent for review: a moderator of this community reviews it before it appears. Nothing is published until then; it will show here once it is approved.',
      }
    : {
        kind: 'ok',
        text: unread.length
          ? `${applied} Not notified (no reader of this topic has that handle): ${unread.map((h) => `@${h}`).join(', ')}.`
          : applied,
      };
}

export function topicHref(web: Web, slug: string, postId?: string): string {
  return href(web, `/t/${slug}`) + (postId ? `#post-${postId}` : '');
}

/** A search snippet: plain text whose matched words come marked **like this**, as <mark>. */
export function highlight(snippet: string): Html {
  // split() with a capture group: the marked words are at the odd places.
  const parts = snippet.split(/\*\*(.+?)\*\*/);
  return html`${parts.map((part, i) => (i % 2 ? html`<mark>${part}</mark>` : part))}`;
}

/** Where a result leads, on the host form of this request: its path (and post anchor) under our base. */
export function resultHref(web: Web, r: Pick<SearchResult, 'url' | 'community'>): string {
  const u = new URL(r.url);
  if (r.community && web.where.kind === 'network') return r.url;
  return href(web, u.pathname) + u.hash;
}

const AGENT_SUFFIX = ' (agent)';

export function resultList(web: Web, results: SearchResult[]): Html {
  const items = results.map((r) => {
    const agent = r.author.endsWith(AGENT_SUFFIX);
    const who = agent
      ? html`${r.author.slice(0, -AGENT_SUFFIX.length)} <span class="badge agent">Agent</span>`
      : r.author;
    const kind =
      r.source_type === 'post'
        ? r.is_solution
          ? 'accepted answer'
          : 'reply'
        : r.source_type === 'article'
          ? 'article'
          : 'question';
    return html`<li><a href="${resultHref(web, r)}">${r.title}</a>${r.is_solution ? html` <span class="badge">Solved</span>` : ''}
<p class="snippet">${highlight(r.snippet)}</p><span class="meta">${r.community ? `${r.community} · ` : ''}${r.category} · ${kind} by ${who} · ${when(r.created_at)}</span></li>`;
  });
  return html`<ol class="topics">${items}</ol>`;
}

/** A link to the next page: the current query with `cursor` replaced. */
export function moreLink(
  web: Web,
  path: string,
  params: Record<string, string | undefined>,
  cursor: string | null | undefined,
  label = 'More',
): Html {
  if (!cursor) return html``;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  q.set('cursor', cursor);
  return html`<p><a href="${`${href(web, path)}?${q}`}">${label}</a></p>`;
}
