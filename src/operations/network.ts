// The network's operations on the apex host, over every PUBLIC community: reading needs no
// credential; ask_community takes a person's user key and posts as that person. None of them lists
// the network: a search reads the public posts its words match, a named community is read by slug.
import { z } from 'zod';
import { DomainError } from '../domain/errors.ts';
import {
  communitySlug,
  cursor,
  LIMITS,
  pageLimit,
  question,
  searchFilters,
  searchQuery,
  span,
  topicRef,
} from '../domain/fields.ts';
import type { Community } from '../store/types.ts';
import type { Services } from '../services.ts';
import type { SearchWithin } from '../search/service.ts';
import { withSimilar } from './community.ts';
import { beforePosting, notPosted } from './similar-solved.ts';
import { defineOperation } from './operation.ts';
import { presentCategory, presentCommunity, presentTopicPage, presentWrite } from './present.ts';
import {
  SEARCH_MODES,
  alternativesIn,
  categorySummary,
  communitySummary,
  getTopicOutput,
  questionFields,
  searchOutput,
  suggestOutput,
  writeOutput,
} from './schemas.ts';

const slug = communitySlug.describe('A community slug, e.g. "acme" (see find_community).');
const slugList = z
  .array(slug)
  .min(1)
  .max(20)
  .optional()
  .describe('Only these communities (slugs). Default: every public community.');

/** A public community by slug; a slug that is not one is not_found. */
async function publicCommunity(services: Services, slugValue: string): Promise<Community> {
  const c = await services.communities.publicBySlug(slugValue);
  if (!c)
    throw new DomainError(
      'not_found',
      `No public community "${slugValue}". Use find_community to discover communities.`,
    );
  return c;
}

/** Where a network search looks: the public communities named (each read by slug), or all of them. */
export async function networkScope(services: Services, only?: string[]): Promise<SearchWithin> {
  if (!only) return 'public';
  return Promise.all([...new Set(only)].map((s) => publicCommunity(services, s)));
}

/** On the network every result names its community, even when only one was searched. */
export function withCommunity<R extends { community?: string }>(
  results: R[],
  within: SearchWithin,
): R[] {
  return within !== 'public' && within.length === 1
    ? results.map((r) => ({ ...r, community: r.community ?? within[0]!.slug }))
    : results;
}

export const searchNetwork = defineOperation({
  name: 'search_network',
  server: 'network',
  title: 'Search every public community',
  description:
    'Full-text search across all public Hamlet communities (or the ones you name), best first; accepted answers rank higher. Each result names its community.',
  input: z.strictObject({
    query: searchQuery.describe(
      `What you are looking for, in plain words (${span(LIMITS.searchQuery)} characters). "quoted phrase" must match exactly; -word excludes a word.`,
    ),
    communities: slugList,
    mode: z
      .enum(SEARCH_MODES)
      .default('lexical')
      .describe('"lexical" (default); "semantic"/"hybrid" where an embedding model is configured.'),
    filters: searchFilters.optional(),
    alternatives: alternativesIn,
  }),
  output: searchOutput,
  credential: 'none',
  mcp: true,
  run: async (ctx, { query, communities, mode, filters, alternatives }) => {
    const within = await networkScope(ctx.services, communities);
    const found = await ctx.services.search.search(within, query, filters ?? {}, mode, {
      alternatives,
    });
    const searched =
      within === 'public'
        ? 'every public community'
        : `${within.length} public communit${within.length === 1 ? 'y' : 'ies'}`;
    await ctx.report.note('info', `Searched ${searched}: ${found.total} result(s).`);
    return { ...found, results: withCommunity(found.results, within) };
  },
});

export const findCommunity = defineOperation({
  name: 'find_community',
  server: 'network',
  title: 'Find the right community',
  description:
    'Which public communities fit a subject: matched on their names, descriptions and content. Each comes with its MCP URL for a direct connection.',
  input: z.strictObject({
    subject: z
      .string()
      .trim()
      .min(2, 'must be at least 2 characters')
      .max(300, 'must be at most 300 characters')
      .describe('The subject or question, in plain words.'),
    limit: pageLimit(20, 5).describe('How many communities, 1-20. Default 5.'),
  }),
  output: z.object({
    communities: z.array(
      communitySummary.extend({
        matches: z.number().int(),
        score: z.number().min(0).max(1),
      }),
    ),
  }),
  credential: 'none',
  mcp: true,
  run: async (ctx, { subject, limit }) => {
    // Two kinds of evidence, each read through an index (never a list of the network): the
    // communities whose slug, name or description hold the subject's words, and how many of the
    // network's best search hits each community holds, and how good.
    const named = await ctx.services.communities.matchPublic(subject, 100);
    const hits = new Map<string, { count: number; score: number }>();
    const found = await ctx.services.search.search('public', subject, { limit: 50 });
    for (const r of found.results) {
      if (!r.community) continue;
      const h = hits.get(r.community) ?? { count: 0, score: 0 };
      hits.set(r.community, { count: h.count + 1, score: h.score + r.score });
    }
    const overlap = new Map(named.map((m) => [m.community.slug, m.score]));
    const known = new Set(named.map((m) => m.community.slug));
    const candidates = [
      ...named.map((m) => m.community),
      ...(await ctx.services.communities.publicBySlugs(
        [...hits.keys()].filter((s) => !known.has(s)),
      )),
    ];
    const scored = candidates.map((c) => {
      const h = hits.get(c.slug) ?? { count: 0, score: 0 };
      return {
        c,
        matches: h.count,
        score: Math.min(1, 0.6 * (overlap.get(c.slug) ?? 0) + 0.4 * Math.min(1, h.score / 3)),
      };
    });
    return {
      communities: scored
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score || a.c.slug.localeCompare(b.c.slug))
        .slice(0, limit)
        .map(({ c, score, matches }) => ({
          ...presentCommunity(c, ctx.urls),
          matches,
          score: Math.round(score * 10_000) / 10_000,
        })),
    };
  },
});

export const getCommunity = defineOperation({
  name: 'get_community',
  server: 'network',
  title: 'Describe a community',
  description:
    'One public community: description, guidelines (read them before asking), categories with counts, and its web and MCP URLs.',
  input: z.strictObject({ community: slug }),
  output: communitySummary.extend({
    guidelines: z.string(),
    categories: z.array(categorySummary),
  }),
  credential: 'none',
  mcp: true,
  run: async (ctx, { community }) => {
    const c = await publicCommunity(ctx.services, community);
    const categories = await ctx.services.content.listCategories(ctx.actor, c);
    return {
      ...presentCommunity(c, ctx.urls),
      guidelines: c.guidelines,
      categories: categories.map(presentCategory),
    };
  },
});

export const getNetworkTopic = defineOperation({
  name: 'get_topic',
  server: 'network',
  title: 'Read a topic',
  description:
    'A topic of a public community with its posts in order (the first post is the question). Paginated with cursor; a page holds at most 512 KB of Markdown, so long posts make shorter pages.',
  input: z.strictObject({
    community: slug,
    topic: topicRef.describe('The topic id (UUID) or slug.'),
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    limit: pageLimit(100, 50).describe('Posts per page, 1-100. Default 50.'),
  }),
  output: getTopicOutput,
  credential: 'none',
  mcp: true,
  run: async (ctx, { community, ...input }) => {
    const c = await publicCommunity(ctx.services, community);
    return {
      community: c.slug,
      ...presentTopicPage(await ctx.services.content.getTopic(ctx.actor, c, input)),
    };
  },
});

export const suggestNetworkAnswer = defineOperation({
  name: 'suggest_answer',
  server: 'network',
  title: 'Suggest existing answers',
  description:
    'Given a question, the best accepted answers across public communities with a confidence in [0, 1], or a plain statement that nothing matched and where to ask.',
  input: z.strictObject({
    question: question.describe(
      `The question, as you would ask it (${span(LIMITS.question)} characters).`,
    ),
    communities: slugList,
    limit: pageLimit(10, 3).describe('How many answers, 1-10. Default 3.'),
    alternatives: alternativesIn,
  }),
  output: suggestOutput,
  credential: 'none',
  mcp: true,
  run: async (ctx, { question: q, communities, limit, alternatives }) => {
    const within = await networkScope(ctx.services, communities);
    const suggested = await ctx.services.search.suggestAnswer(within, q, limit, {
      askWith: 'ask_community',
      alternatives,
    });
    return { ...suggested, answers: withCommunity(suggested.answers, within) };
  },
});

export const askCommunity = defineOperation({
  name: 'ask_community',
  server: 'network',
  title: 'Ask a community',
  description:
    'Post a question to a public community as the person who owns the user key (Authorization: Bearer hmlt_u_…). Search first. The community\'s approval policy applies: the answer may be status "pending_approval".',
  input: z.strictObject({ community: slug, ...questionFields }),
  output: writeOutput,
  credential: 'user',
  mcp: true,
  write: true,
  run: async (ctx, { community, idempotency_key, ...payload }) => {
    const c = await publicCommunity(ctx.services, community);
    ctx.audit.communityId = c.id;
    const check = await beforePosting(ctx, c, payload);
    if (!check.post) return notPosted(check.similar);
    await ctx.report.progress(2, 3, `Posting the question to ${c.slug}`);
    const outcome = await ctx.services.writes.execute(ctx.actor, c, 'topic.create', payload, {
      idempotencyKey: idempotency_key,
      ip: ctx.ip,
      audit: ctx.audit,
    });
    await ctx.report.progress(
      3,
      3,
      outcome.status === 'applied' ? 'Posted' : 'Queued for approval',
    );
    return withSimilar(
      presentWrite(outcome, `Your question was posted to ${c.slug}.`),
      check.similar,
    );
  },
});

/** The network server's tools, in the order tools/list shows them. */
export const NETWORK_OPERATIONS = [
  searchNetwork,
  findCommunity,
  getCommunity,
  getNetworkTopic,
  suggestNetworkAnswer,
  askCommunity,
];
