// Web routes on community hosts: `/` and `/t/:slug`. Pages show what an anonymous visitor may read
// (public communities); everything else answers the same 404, so nothing about private content leaks.
import type { Hono } from 'hono';
import { anonymous } from '../domain/actor.ts';
import type { ContentService } from '../domain/content.ts';
import { isDomainError } from '../domain/errors.ts';
import type { Community } from '../store/types.ts';
import { homePage, notFoundPage, topicPage } from './pages.ts';

export type WebDeps = {
  content: ContentService;
  /** The community the request's host names, if any. */
  communityOf: (host: string | undefined, forwardedHost: string | undefined) => Promise<Community | undefined>;
};

export function mountWeb(app: Hono, deps: WebDeps): void {
  const community = (c: { req: { header(name: string): string | undefined } }) => deps.communityOf(c.req.header('host'), c.req.header('x-forwarded-host'));
  const notFound = () => notFoundPage('There is nothing at this address, or it is not public.');

  app.get('/', async (c, next) => {
    const found = await community(c);
    if (!found) return next(); // the apex: the network has no home page yet
    try {
      const [categories, latest, unanswered] = await Promise.all([
        deps.content.listCategories(anonymous, found),
        deps.content.listTopics(anonymous, found, { sort: 'latest', limit: 20 }),
        deps.content.listTopics(anonymous, found, { filter: 'unanswered', limit: 10 }),
      ]);
      return c.html(homePage(found, categories, latest.topics, unanswered.topics));
    } catch (err) {
      if (isDomainError(err) && err.code === 'not_found') return c.html(notFound(), 404);
      throw err;
    }
  });

  app.get('/t/:slug', async (c) => {
    const found = await community(c);
    if (!found) return c.html(notFound(), 404);
    try {
      const t = await deps.content.getTopic(anonymous, found, { topic: c.req.param('slug'), cursor: c.req.query('cursor') ?? null, limit: 100 });
      return c.html(topicPage(found, t.topic, t.posts, t.nextCursor));
    } catch (err) {
      if (isDomainError(err) && (err.code === 'not_found' || err.code === 'invalid_argument')) return c.html(notFound(), 404);
      throw err;
    }
  });
}
