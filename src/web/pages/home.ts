// A community's front pages: the home (categories, latest, unanswered and solved topics), one
// category's topics (filters and sort as list_topics offers them, paginated). All read through
// list_categories and list_topics; profiles are ./profile.ts.
import type { Context, Hono } from 'hono';
import { LIMITS } from '../../domain/fields.ts';
import { listCategories, listTopics } from '../../operations/community.ts';
import type { OutputOf } from '../../operations/operation.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { plural, when } from '../html.ts';
import { failurePage, notFound, page } from '../respond.ts';
import { moreLink } from './parts.ts';
import { livesOf, topicList, type Lives } from './topic-list.ts';
import { pageOf, pager } from './pager.ts';
import { html, type Html } from '../template.ts';

const TOPICS_PER_PAGE = 30;

function categoryList(web: Web, categories: OutputOf<typeof listCategories>['categories']): Html {
  const items = categories.map(
    (c) =>
      html`<li><a href="${href(web, `/categories/${c.slug}`)}">${c.name}</a> <span class="meta">${c.kind === 'knowledge_base' ? 'knowledge base · ' : ''}${plural(c.topic_count, c.kind === 'knowledge_base' ? 'article' : 'topic')}</span>${c.description ? html`<br><span class="meta">${c.description}</span>` : ''}</li>`,
  );
  return html`<ul class="topics">${items}</ul>`;
}

const FILTERS = [
  { value: '', label: 'All' },
  { value: 'unanswered', label: 'Unanswered' },
  { value: 'solved', label: 'Solved' },
] as const;
const SORTS = [
  { value: 'latest', label: 'Latest activity' },
  { value: 'created', label: 'Newest' },
  { value: 'top', label: 'Most replies' },
] as const;

/**
 * A signed-in person's "new since your last visit": the latest topics with posts since their
 * previous visit began that they have not read to the end (nothing on a first visit).
 */
function sinceLastVisit(
  web: Web,
  latest: OutputOf<typeof listTopics>['topics'],
  lives: Lives,
  previousVisit: string | null,
): Html {
  if (!web.person || !previousVisit) return html``;
  const since = Date.parse(previousVisit);
  const fresh = latest.filter((t) => {
    const life = lives.get(t.id);
    if (!life || Date.parse(life.lastPostedAt) <= since) return false;
    if (life.lastPoster.kind === 'person' && life.lastPoster.id === web.person!.personId)
      return false;
    return life.unopened || (life.unread ?? 0) > 0;
  });
  return html`<section class="since-visit" aria-labelledby="since-visit"><h2 id="since-visit">New since your last visit</h2><p class="meta">Since ${when(previousVisit)}.</p>${fresh.length ? topicList(web, fresh, lives) : html`<p>Nothing new: you are up to date.</p>`}</section>`;
}

export function homeRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/', async (c, next) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return next();
    const community = web.where.community;
    const [categories, latest, unanswered, solved] = await Promise.all([
      call(deps, web, listCategories, {}),
      call(deps, web, listTopics, { sort: 'latest', limit: 20 }),
      call(deps, web, listTopics, { filter: 'unanswered', sort: 'created', limit: 10 }),
      call(deps, web, listTopics, { filter: 'solved', sort: 'latest', limit: 10 }),
    ]);
    if (!categories.ok) return failurePage(c, web, categories);
    if (!latest.ok) return failurePage(c, web, latest);
    if (!unanswered.ok) return failurePage(c, web, unanswered);
    if (!solved.ok) return failurePage(c, web, solved);
    const [lives, previousVisit] = await Promise.all([
      livesOf(deps, web, latest.value.topics, unanswered.value.topics, solved.value.topics),
      web.person
        ? deps.services.reading.previousVisit(web.person, community)
        : Promise.resolve(null),
    ]);
    const body = html`<h1>${community.name}</h1>${community.description ? html`<p>${community.description}</p>` : ''}
<form method="get" action="${href(web, '/search')}" role="search" class="field"><label for="home-q">Search ${community.name}</label><input type="search" id="home-q" name="q" required maxlength="${LIMITS.searchQuery.max}"> <button type="submit">Search</button></form>
${web.sanction ? '' : html`<p><a class="button" href="${href(web, '/ask')}">Ask a question</a></p>`}
${sinceLastVisit(web, latest.value.topics, lives, previousVisit)}
<h2>Categories</h2>${categoryList(web, categories.value.categories)}
<h2>Latest</h2>${topicList(web, latest.value.topics, lives)}${latest.value.next_cursor ? html`<p><a href="${href(web, '/latest')}">All topics</a></p>` : ''}
<h2>Unanswered</h2>${topicList(web, unanswered.value.topics, lives, 'Every question has a reply.')}
<h2>Recently solved</h2>${topicList(web, solved.value.topics, lives, 'No accepted answers yet.')}`;
    return page(c, web, {
      title: community.name,
      body,
      meta: {
        description: community.description || `${community.name}: questions and answers`,
        feed: { title: `${community.name}: new topics`, href: href(web, '/latest.atom') },
      },
    });
  });

  const listing = async (c: Context<WebEnv>, category: string | undefined, tag?: string) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const filter = c.req.query('filter') || undefined;
    const sort = c.req.query('sort') || 'latest';
    const cursor = c.req.query('cursor') || undefined;
    const pageNo = pageOf(c.req.query('page'));
    const [categories, topics] = await Promise.all([
      call(deps, web, listCategories, {}),
      call(deps, web, listTopics, {
        category,
        tag,
        filter,
        sort,
        cursor,
        page: cursor ? undefined : pageNo,
        limit: TOPICS_PER_PAGE,
      }),
    ]);
    if (!categories.ok) return failurePage(c, web, categories);
    if (!topics.ok) return failurePage(c, web, topics);
    const lives = await livesOf(deps, web, topics.value.topics);
    const cat = category ? categories.value.categories.find((k) => k.slug === category) : undefined;
    if (category && !cat) return notFound(c, web);
    const path = category
      ? `/categories/${category}`
      : tag
        ? `/tags/${encodeURIComponent(tag)}`
        : '/latest';
    const title = cat ? cat.name : tag ? `Tagged “${tag}”` : 'All topics';
    const tab = (key: string, value: string, label: string, current: string) => {
      const q = new URLSearchParams({ ...(filter ? { filter } : {}), sort, [key]: value });
      if (!value) q.delete(key);
      return html`<li><a href="${`${href(web, path)}?${q}`}"${value === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
    };
    const body = html`<h1>${title}</h1>${cat?.description ? html`<p>${cat.description}</p>` : ''}
<nav aria-label="Show"><ul class="tabs">${FILTERS.map((f) => tab('filter', f.value, f.label, filter ?? ''))}</ul></nav>
<nav aria-label="Sort"><ul class="tabs">${SORTS.map((s) => tab('sort', s.value, s.label, sort))}</ul></nav>
${topicList(web, topics.value.topics, lives)}${
      cursor
        ? moreLink(web, path, { filter, sort }, topics.value.next_cursor, 'Older topics')
        : pager(web, {
            path,
            params: { filter, sort: sort === 'latest' ? undefined : sort },
            page: pageNo,
            perPage: TOPICS_PER_PAGE,
            // Counted where the categories' counts tell (no filter, no tag); else page by page.
            total:
              filter || tag
                ? undefined
                : cat
                  ? cat.topic_count
                  : categories.value.categories.reduce((n, k) => n + k.topic_count, 0),
            hasNext: Boolean(topics.value.next_cursor),
            noun: ['topic', 'topics'],
          })
    }`;
    return page(c, web, {
      title,
      body,
      meta: {
        description: cat?.description || `${title} in ${web.where.community.name}`,
        feed: { title: `${title}: new topics`, href: href(web, `${path}.atom`) },
      },
    });
  };
  app.get('/latest', (c) => listing(c, undefined));
  app.get('/categories/:category', (c) => listing(c, c.req.param('category')));
  app.get('/tags/:tag', (c) => listing(c, undefined, c.req.param('tag')));
}
