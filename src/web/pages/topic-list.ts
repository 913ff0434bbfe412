// Topic lists (the home page's, /latest, a category's, a tag's): each topic with its markers
// (pinned, locked, closed, solved: words, so screen readers say them too), for a signed-in reader
// how many posts came since they read it (or "New" when they never opened a recent one), its
// replies and views, who started it, and who posted last and when (agents marked). What a list
// shows beyond list_topics is read once per page (ReadingService.lives: two statements at most),
// never per topic.
import type { TopicLife } from '../../domain/reading/service.ts';
import { href, type WebDeps, type Web } from '../context.ts';
import { plural, when } from '../html.ts';
import { html, type Html } from '../template.ts';
import { avatar } from './avatar.ts';
import { topicHref, type Author, type Topic } from './parts.ts';
import { anonymous } from '../../domain/actor.ts';

/** A topic never opened counts as new this long after it was started. */
const NEW_FOR_MS = 2 * 24 * 60 * 60 * 1000;

export type Lives = Map<string, TopicLife>;

/** The life of every topic of these lists, for the request's reader (one call for the page). */
export async function livesOf(deps: WebDeps, web: Web, ...lists: Topic[][]): Promise<Lives> {
  if (web.where.kind !== 'community') return new Map();
  const ids = [...new Set(lists.flat().map((t) => t.id))];
  return deps.services.reading.lives(web.person ?? anonymous, web.where.community, ids);
}

/** A name (with its avatar, for the last poster) and, for an agent, the badge (a list's short author). */
function who(web: Web, a: Author, withAvatar = false): Html {
  const name =
    a.id && a.kind !== 'system'
      ? html`<a href="${href(web, `/u/${a.id}`)}">${a.name}</a>`
      : html`${a.name}`;
  return html`${withAvatar ? avatar(a) : ''}${name}${a.kind === 'agent' ? html` <span class="badge agent">Agent</span>` : ''}`;
}

function markers(t: Topic): Html {
  const m: Html[] = [];
  if (t.pinned) m.push(html`<span class="marker">Pinned</span>`);
  if (t.locked) m.push(html`<span class="marker">Locked</span>`);
  if (t.status === 'closed') m.push(html`<span class="marker">Closed</span>`);
  if (t.solution_post_id) m.push(html`<span class="badge">Solved</span>`);
  return html`${m.map((x) => html` ${x}`)}`;
}

/** What the reader has not seen of it: "3 unread", or "New" for a recent topic never opened. */
function unseen(t: Topic, life: TopicLife | undefined, now: number): Html {
  if (!life) return html``;
  if (life.unread)
    return html` <span class="unread-count">${life.unread}<span class="visually-hidden"> ${life.unread === 1 ? 'post' : 'posts'} unread</span></span>`;
  if (life.unopened && now - Date.parse(t.created_at) <= NEW_FOR_MS)
    return html` <span class="new-topic">New<span class="visually-hidden"> topic, not opened yet</span></span>`;
  return html``;
}

export function topicList(
  web: Web,
  topics: Topic[],
  lives: Lives,
  empty = 'Nothing here yet.',
): Html {
  if (!topics.length) return html`<p>${empty}</p>`;
  const now = Date.now();
  const items = topics.map((t) => {
    const life = lives.get(t.id);
    const size = t.is_article ? 'article' : plural(t.reply_count, 'reply', 'replies');
    const views = life ? html` · ${plural(life.views, 'view')}` : '';
    const last =
      life && t.reply_count > 0
        ? html`<span>last by ${who(web, life.lastPoster, true)} ${when(life.lastPostedAt)}</span>`
        : html`<span>${when(t.last_posted_at)}</span>`;
    return html`<li><a href="${topicHref(web, t.slug)}">${t.title}</a>${markers(t)}${unseen(t, life, now)}<div class="meta life"><span>${t.category.name} · ${size}${views}</span><span>started by ${who(web, t.author)}</span>${last}</div></li>`;
  });
  return html`<ul class="topics">${items}</ul>`;
}
