// The network MCP server on the apex host (SPEC §6.2): 6 tools over every PUBLIC community. Reading
// needs no key; ask_community needs a user key (hmlt_u_) and posts as that person.
import { z } from 'zod';
import { DomainError } from '../../domain/errors.ts';
import type { Community } from '../../store/types.ts';
import type { RequestContext } from '../context.ts';
import type { Surface, ToolDef } from '../surface.ts';
import { zodTool } from '../zod-tool.ts';
import { writeResponse } from './community.ts';
import { networkInstructions } from './instructions.ts';
import type { SurfaceDeps } from './ports.ts';
import { presentPost, presentTopic } from './present.ts';
import { SEARCH_MODES, getTopicOutput, questionFields, searchFilters, searchOutput, suggestOutput, writeOutput } from './schemas.ts';

const slug = z.string().trim().toLowerCase().min(2).max(63).describe('A community slug, e.g. "acme" (see find_community).');
const slugList = z.array(slug).min(1).max(20).optional().describe('Only these communities (slugs). Default: every public community.');

export function networkTools(deps: SurfaceDeps): ToolDef[] {
  /** Public communities, optionally narrowed to some slugs; a slug that is not public is not_found. */
  async function publicCommunities(only?: string[]): Promise<Community[]> {
    const all = await deps.listPublicCommunities();
    if (!only) return all;
    const bySlug = new Map(all.map((c) => [c.slug, c]));
    return only.map((s) => {
      const c = bySlug.get(s);
      if (!c) throw new DomainError('not_found', `No public community "${s}". Use find_community to discover communities.`);
      return c;
    });
  }
  // Reads need no key; the transport already limits callers by IP.
  const anonymousCall = <T>(_ctx: RequestContext, _tool: string, run: () => Promise<T>) => run();

  return [
    zodTool({
      name: 'search_network',
      title: 'Search every public community',
      description: 'Full-text search across all public Hamlet communities (or the ones you name), best first; accepted answers rank higher. Each result names its community.',
      input: z.strictObject({
        query: z.string().trim().min(1).max(500).describe('What you are looking for, in plain words. "quoted phrase" must match exactly; -word excludes a word.'),
        communities: slugList,
        mode: z.enum(SEARCH_MODES).default('lexical').describe('"lexical" (default); "semantic"/"hybrid" where an embedding model is configured.'),
        filters: searchFilters.optional(),
      }),
      output: searchOutput,
      annotations: { title: 'Search every public community', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ query, communities, mode, filters }, ctx) =>
        anonymousCall(ctx, 'search_network', async () => {
          const within = await publicCommunities(communities);
          return withCommunity(await deps.search.search(within, query, filters ?? {}, mode), within);
        }),
    }),
    zodTool({
      name: 'find_community',
      title: 'Find the right community',
      description: 'Which public communities fit a subject: matched on their names, descriptions and content. Each comes with its MCP URL for a direct connection.',
      input: z.strictObject({
        subject: z.string().trim().min(2).max(300).describe('The subject or question, in plain words.'),
        limit: z.number().int().min(1).max(20).default(5).describe('How many communities, 1-20. Default 5.'),
      }),
      output: z.object({
        communities: z.array(z.object({ slug: z.string(), name: z.string(), description: z.string(), web_url: z.string(), mcp_url: z.string(), matches: z.number().int(), score: z.number().min(0).max(1) })),
      }),
      annotations: { title: 'Find the right community', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ subject, limit }, ctx) =>
        anonymousCall(ctx, 'find_community', async () => {
          const all = await publicCommunities();
          const words = tokens(subject);
          // Content evidence: how many of the best search hits each community holds, and how good.
          const hits = new Map<string, { count: number; score: number }>();
          if (all.length) {
            const found = await deps.search.search(all, subject, { limit: 50 });
            for (const r of found.results) {
              const slugOf = r.community ?? all[0]!.slug; // a single-community search names none
              const h = hits.get(slugOf) ?? { count: 0, score: 0 };
              hits.set(slugOf, { count: h.count + 1, score: h.score + r.score });
            }
          }
          const scored = all.map((c) => {
            const meta = tokens(`${c.name} ${c.slug} ${c.description}`);
            const overlap = words.length ? words.filter((w) => meta.includes(w)).length / words.length : 0;
            const h = hits.get(c.slug) ?? { count: 0, score: 0 };
            return { c, matches: h.count, score: Math.min(1, 0.6 * overlap + 0.4 * Math.min(1, h.score / 3)) };
          });
          return {
            communities: scored
              .filter((s) => s.score > 0)
              .sort((a, b) => b.score - a.score || a.c.slug.localeCompare(b.c.slug))
              .slice(0, limit)
              .map(({ c, score, matches }) => ({
                slug: c.slug, name: c.name, description: c.description, web_url: deps.urls.web(c.slug), mcp_url: deps.urls.mcp(c.slug),
                matches, score: Math.round(score * 10_000) / 10_000,
              })),
          };
        }),
    }),
    zodTool({
      name: 'get_community',
      title: 'Describe a community',
      description: "One public community: description, guidelines (read them before asking), categories with counts, and its web and MCP URLs.",
      input: z.strictObject({ community: slug }),
      output: z.object({
        slug: z.string(), name: z.string(), description: z.string(), guidelines: z.string(), web_url: z.string(), mcp_url: z.string(),
        categories: z.array(z.object({ slug: z.string(), name: z.string(), description: z.string(), kind: z.enum(['discussion', 'knowledge_base']), topic_count: z.number().int() })),
      }),
      annotations: { title: 'Describe a community', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ community }, ctx) =>
        anonymousCall(ctx, 'get_community', async () => {
          const [c] = await publicCommunities([community]);
          const categories = await deps.content.listCategories({ kind: 'anonymous' }, c!);
          return {
            slug: c!.slug, name: c!.name, description: c!.description, guidelines: c!.guidelines,
            web_url: deps.urls.web(c!.slug), mcp_url: deps.urls.mcp(c!.slug),
            categories: categories.map((k) => ({ slug: k.slug, name: k.name, description: k.description, kind: k.kind, topic_count: k.topicCount })),
          };
        }),
    }),
    zodTool({
      name: 'get_topic',
      title: 'Read a topic',
      description: 'A topic of a public community with its posts in order (the first post is the question). Paginated with cursor.',
      input: z.strictObject({
        community: slug,
        topic: z.string().trim().min(1).max(200).describe('The topic id (UUID) or slug.'),
        cursor: z.string().min(1).max(500).optional().describe('next_cursor of a previous call.'),
        limit: z.number().int().min(1).max(100).default(50).describe('Posts per page, 1-100. Default 50.'),
      }),
      output: getTopicOutput,
      annotations: { title: 'Read a topic', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ community, topic, cursor, limit }, ctx) =>
        anonymousCall(ctx, 'get_topic', async () => {
          const [c] = await publicCommunities([community]);
          const t = await deps.content.getTopic({ kind: 'anonymous' }, c!, { topic, cursor, limit });
          return { community: c!.slug, topic: presentTopic(t.topic), posts: t.posts.map(presentPost), next_cursor: t.nextCursor };
        }),
    }),
    zodTool({
      name: 'suggest_answer',
      title: 'Suggest existing answers',
      description: 'Given a question, the best accepted answers across public communities with a confidence in [0, 1], or a plain statement that nothing matched and where to ask.',
      input: z.strictObject({
        question: z.string().trim().min(3).max(2000).describe('The question, as you would ask it.'),
        communities: slugList,
        limit: z.number().int().min(1).max(10).default(3).describe('How many answers, 1-10. Default 3.'),
      }),
      output: suggestOutput,
      annotations: { title: 'Suggest existing answers', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ question, communities, limit }, ctx) =>
        anonymousCall(ctx, 'suggest_answer', async () => {
          const within = await publicCommunities(communities);
          const suggested = await deps.search.suggestAnswer(within, question, limit, { askWith: 'ask_community' });
          return { ...suggested, answers: withCommunity({ results: suggested.answers }, within).results };
        }),
    }),
    zodTool({
      name: 'ask_community',
      title: 'Ask a community',
      description:
        'Post a question to a public community as the person who owns the user key (Authorization: Bearer hmlt_u_…). Search first. The community\'s approval policy applies: the answer may be status "pending_approval".',
      input: z.strictObject({ community: slug, ...questionFields }),
      output: writeOutput,
      annotations: { title: 'Ask a community', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: async ({ community, idempotency_key, ...payload }, ctx) => {
        const actor = await deps.identity.authenticateUser(ctx.credential);
        await deps.policy.admit(actor);
        const [c] = await publicCommunities([community]);
        try {
          const outcome = await deps.writes.execute(actor, c!, 'topic.create', payload, { idempotencyKey: idempotency_key, ip: ctx.clientIp });
          await deps.policy.audit({ community: c!, actor, tool: 'ask_community', ip: ctx.clientIp });
          return writeResponse(outcome, `Your question was posted to ${c!.slug}.`);
        } catch (err) {
          await deps.policy.audit({ community: c!, actor, tool: 'ask_community', ip: ctx.clientIp, error: err });
          throw err;
        }
      },
    }),
  ];
}

export function networkSurface(deps: SurfaceDeps): Surface {
  return {
    serverInfo: { name: 'hamlet', title: 'Hamlet network', version: deps.version },
    instructions: networkInstructions(),
    tools: networkTools(deps),
    prompts: [],
    resources: [],
    templates: [],
  };
}

/** On the network every result names its community, even when only one was searched. */
function withCommunity<R extends { community?: string }, T extends { results: R[] }>(response: T, within: Community[]): T {
  if (within.length !== 1) return response;
  return { ...response, results: response.results.map((r) => ({ ...r, community: r.community ?? within[0]!.slug })) };
}

function tokens(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2);
}
