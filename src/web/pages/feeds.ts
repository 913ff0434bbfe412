// What machines read from a community's web: Atom feeds of the latest topics, of a category, of a
// tag and of one topic's posts (each advertised by its HTML page), robots.txt (a private community
// disallows everything; a public one names its sitemap, ./sitemaps.ts) and the site icon. Everything
// is read through the same operations as the pages, so a feed shows exactly what its visitor may
// read: a private community's feeds answer 404 to a reader without access, as its pages do.
import type { Context, Hono } from 'hono';
import { getTopic, listCategories, listTopics } from '../../operations/community.ts';
import type { OutputOf } from '../../operations/operation.ts';
import { atomFeed, type AtomEntry } from '../atom.ts';
import { call, type WebDeps, type WebEnv } from '../context.ts';
import { FAVICON_ICO } from '../favicon.ts';
import { failurePage, notFound } from '../respond.ts';
import { absolute } from '../site.ts';
import type { ShownPost } from './parts.ts';

const ATOM = 'application/atom+xml; charset=utf-8';
const FEED_ENTRIES = 30;

type ListedTopic = OutputOf<typeof listTopics>['topics'][number];

function topicEntry(t: ListedTopic): AtomEntry {
  const what = t.is_article ? 'Article' : 'Asked';
  return {
    id: t.url,
    title: t.title,
    link: t.url,
    updated: t.last_posted_at ?? t.updated_at,
    published: t.created_at,
    author: t.author.name,
    categories: [t.category.name, ...t.tags],
    summary: `${what} by ${t.author.name} in ${t.category.name} · ${t.reply_count} ${t.reply_count === 1 ? 'reply' : 'replies'}${t.solution_post_id ? ' · solved' : ''}`,
  };
}

export function feedRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const topicsFeed = async (
    c: Context<WebEnv>,
    path: string,
    title: (community: string) => string,
    filter: { category?: string; tag?: string },
  ) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const community = web.where.community;
    const got = await call(deps, web, listTopics, {
      ...filter,
      sort: 'created',
      limit: FEED_ENTRIES,
    });
    if (!got.ok) return failurePage(c, web, got);
    const body = atomFeed({
      id: absolute(deps, web, `${path}.atom`),
      title: title(community.name),
      subtitle: community.description || undefined,
      alternate: absolute(deps, web, path),
      self: absolute(deps, web, `${path}.atom`),
      entries: got.value.topics.map(topicEntry),
      fallbackUpdated: community.createdAt,
    });
    return c.body(body, 200, { 'content-type': ATOM });
  };

  app.get('/latest.atom', (c) => topicsFeed(c, '/latest', (name) => `${name}: new topics`, {}));
  app.get('/categories/:file{[^/]+\\.atom}', async (c) => {
    const slug = c.req.param('file').slice(0, -'.atom'.length);
    const web = c.get('web');
    const categories = await call(deps, web, listCategories, {});
    const name = categories.ok
      ? categories.value.categories.find((k) => k.slug === slug)?.name
      : undefined;
    if (categories.ok && !name) return notFound(c, web);
    return topicsFeed(c, `/categories/${slug}`, (n) => `${n}: ${name ?? slug}`, {
      category: slug,
    });
  });
  app.get('/tags/:file{[^/]+\\.atom}', (c) => {
    const tag = decodeURIComponent(c.req.param('file').slice(0, -'.atom'.length));
    return topicsFeed(c, `/tags/${encodeURIComponent(tag)}`, (n) => `${n}: tagged ${tag}`, {
      tag,
    });
  });

  app.get('/t/:file{[^/]+\\.atom}', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return notFound(c, web);
    const slug = c.req.param('file').slice(0, -'.atom'.length);
    const got = await call(deps, web, getTopic, { topic: slug, limit: 100 });
    if (!got.ok)
      return failurePage(
        c,
        web,
        got.code === 'invalid_argument' ? { ...got, code: 'not_found' } : got,
      );
    const { topic } = got.value;
    // A feed is read by anyone it is shared with: never a hidden post, even a moderator's feed.
    const posts = (got.value.posts as ShownPost[]).filter((p) => !p.hidden);
    const body = atomFeed({
      id: `${topic.url}.atom`,
      title: topic.title,
      alternate: topic.url,
      self: absolute(deps, web, `/t/${topic.slug}.atom`),
      entries: posts.map((p) => ({
        id: `${topic.url}#post-${p.id}`,
        title: p.is_question ? topic.title : `Re: ${topic.title}`,
        link: `${topic.url}#post-${p.id}`,
        updated: p.edited_at ?? p.created_at,
        published: p.created_at,
        author: p.author.name,
        html: p.html,
      })),
      fallbackUpdated: topic.created_at,
    });
    return c.body(body, 200, { 'content-type': ATOM });
  });

  app.get('/robots.txt', (c) => {
    const web = c.get('web');
    const closed = web.where.kind === 'community' && web.where.community.visibility !== 'public';
    const body = closed
      ? 'User-agent: *\nDisallow: /\n'
      : `User-agent: *\nAllow: /\nSitemap: ${absolute(deps, web, '/sitemap.xml')}\n`;
    return c.body(body, 200, { 'content-type': 'text/plain; charset=utf-8' });
  });
}

/** The icon on every host, known or not (browsers ask for it before anything else). */
export function mountFavicon(app: Hono): void {
  app.get('/favicon.ico', (c) => {
    c.header('cache-control', 'public, max-age=86400');
    return c.body(new Uint8Array(FAVICON_ICO), 200, { 'content-type': 'image/x-icon' });
  });
}
