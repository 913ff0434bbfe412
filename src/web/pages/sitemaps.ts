// The sitemaps (sitemaps.org 0.9). /sitemap.xml is a sitemap index, never a listing, so its cost
// follows the number of its files: on the apex, the files of the public communities
// (/sitemaps/communities-<n>.xml); on a public community, its pages (/sitemaps/pages.xml: the home
// page and the categories) and the files of its topics (/sitemaps/topics-<n>.xml). Each file holds
// at most 50,000 URLs, read as one index range (src/domain/sitemaps.ts). Everything is read
// through the operations, as the pages are; a private community has no sitemap, whoever asks.
import type { Context, Hono } from 'hono';
import { listCategories } from '../../operations/community.ts';
import { listSitemapCommunities, listSitemapTopics } from '../../operations/sitemaps.ts';
import { sitemap, sitemapIndex } from '../atom.ts';
import { call, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { failurePage, notFound } from '../respond.ts';
import { absolute } from '../site.ts';

const XML = 'application/xml; charset=utf-8';

/** 1 … files. */
const numbered = (files: number) => Array.from({ length: files }, (_, i) => i + 1);

/** `communities-3.xml` → { name: 'communities', file: 3 }; `pages.xml` → { name: 'pages' }. */
function fileOf(param: string): { name: string; file?: number } | undefined {
  const m = /^([a-z]+)(?:-([1-9][0-9]{0,5}))?\.xml$/.exec(param);
  return m ? { name: m[1]!, file: m[2] ? Number(m[2]) : undefined } : undefined;
}

export function sitemapRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const xmlBody = (c: Context<WebEnv>, body: string) => c.body(body, 200, { 'content-type': XML });

  app.get('/sitemap.xml', async (c) => {
    const web = c.get('web');
    if (web.where.kind === 'network') {
      const got = await call(deps, web, listSitemapCommunities, {});
      if (!got.ok) return failurePage(c, web, got);
      const files = numbered(got.value.files).map((n) => `/sitemaps/communities-${n}.xml`);
      return xmlBody(c, sitemapIndex(files.map((path) => absolute(deps, web, path))));
    }
    if (web.where.community.visibility !== 'public') return notFound(c, web);
    const got = await call(deps, web, listSitemapTopics, {});
    if (!got.ok) return failurePage(c, web, got);
    const files = [
      '/sitemaps/pages.xml',
      ...numbered(got.value.files).map((n) => `/sitemaps/topics-${n}.xml`),
    ];
    return xmlBody(c, sitemapIndex(files.map((path) => absolute(deps, web, path))));
  });

  app.get('/sitemaps/:file', async (c) => {
    const web = c.get('web');
    const wanted = fileOf(c.req.param('file'));
    if (!wanted) return notFound(c, web);
    if (web.where.kind === 'network') {
      if (wanted.name !== 'communities' || !wanted.file) return notFound(c, web);
      const got = await call(deps, web, listSitemapCommunities, { file: wanted.file });
      if (!got.ok) return failurePage(c, web, got);
      return xmlBody(
        c,
        sitemap(got.value.entries.map((e) => ({ loc: e.url, lastmod: e.updated_at }))),
      );
    }
    if (web.where.community.visibility !== 'public') return notFound(c, web);
    if (wanted.name === 'pages' && !wanted.file) return pagesFile(c, web);
    if (wanted.name !== 'topics' || !wanted.file) return notFound(c, web);
    const got = await call(deps, web, listSitemapTopics, { file: wanted.file });
    if (!got.ok) return failurePage(c, web, got);
    return xmlBody(
      c,
      sitemap(got.value.entries.map((e) => ({ loc: e.url, lastmod: e.updated_at }))),
    );
  });

  /** A public community's own pages: its home page and each category's. */
  async function pagesFile(c: Context<WebEnv>, web: Web) {
    const categories = await call(deps, web, listCategories, {});
    if (!categories.ok) return failurePage(c, web, categories);
    const urls = [
      { loc: absolute(deps, web, '/') },
      ...categories.value.categories.map((k) => ({
        loc: absolute(deps, web, `/categories/${k.slug}`),
      })),
    ];
    return xmlBody(c, sitemap(urls));
  }
}
