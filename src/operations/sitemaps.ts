// What the sitemaps list (the web's /sitemap.xml and its files): without `file`, how many files
// there are; with `file`, that file's URLs and when each page last changed. The network lists its
// public communities, a public community its listed topics, each in files of at most 50,000 URLs.
import { z } from 'zod';
import { pageNumber } from '../domain/fields.ts';
import { defineOperation } from './operation.ts';

const input = z.strictObject({
  file: pageNumber
    .optional()
    .describe('Which file, 1 for the first; none: only how many there are.'),
});

const output = z.object({
  files: z.number().int().min(0),
  entries: z.array(z.object({ url: z.string(), updated_at: z.string() })),
});

const presented = (file: { files: number; entries: { url: string; updatedAt: string }[] }) => ({
  files: file.files,
  entries: file.entries.map((e) => ({ url: e.url, updated_at: e.updatedAt })),
});

export const listSitemapCommunities = defineOperation({
  name: 'list_sitemap_communities',
  server: 'network',
  title: 'Sitemap of the public communities',
  description:
    'How many sitemap files list the public communities, or one file of them: each community’s web URL and last change.',
  input,
  output,
  credential: 'none',
  run: async (ctx, { file }) => {
    const { sitemaps } = ctx.services;
    if (file === undefined) return { files: await sitemaps.networkFiles(), entries: [] };
    return presented(await sitemaps.networkFile(file));
  },
});

export const listSitemapTopics = defineOperation({
  name: 'list_sitemap_topics',
  server: 'community',
  title: 'Sitemap of the topics',
  description:
    'How many sitemap files list this public community’s topics, or one file of them: each topic’s URL and last change.',
  input,
  output,
  credential: 'community',
  run: async (ctx, { file }) => {
    const { sitemaps } = ctx.services;
    if (file === undefined)
      return { files: await sitemaps.communityFiles(ctx.actor, ctx.community), entries: [] };
    return presented(await sitemaps.communityFile(ctx.actor, ctx.community, file));
  },
});

export const SITEMAP_NETWORK_OPERATIONS = [listSitemapCommunities];
export const SITEMAP_COMMUNITY_OPERATIONS = [listSitemapTopics];
