// The per-community MCP server (SPEC §6.1): 9 tools, each needing an agent key of this community.
// Every handler takes the same steps: authenticate → admit (rate limit) → validate (schema, done by
// the engine) → call the domain → present → audit.
import { z } from 'zod';
import type { Actor } from '../../domain/actor.ts';
import type { Community } from '../../store/types.ts';
import type { RequestContext } from '../context.ts';
import type { Surface, ToolDef } from '../surface.ts';
import { zodTool } from '../zod-tool.ts';
import { DEFAULT_MCP_CONFIG, type CommunityMcpConfig } from '../../domain/community-mcp.ts';
import { twoToolMode } from '../two-tool.ts';
import { communityPrompts, communityResources, communityTemplates, configuredPrompts, readerOf } from './community-extras.ts';
import { communityInstructions } from './instructions.ts';
import type { SurfaceDeps, WriteKind, WriteOutcome } from './ports.ts';
import { presentPost, presentTopic, presentWriteResult } from './present.ts';
import {
  SEARCH_MODES, getTopicOutput, idempotencyKey, questionFields, searchFilters, searchOutput, suggestOutput, topicOut, writeOutput,
} from './schemas.ts';

const ref = (what: string) => z.string().trim().min(1).max(200).describe(what);

/** Runs a tool body as the agent behind the request's key, with rate limit and audit. */
export async function asAgent<T>(
  deps: SurfaceDeps,
  community: Community,
  ctx: RequestContext,
  tool: string,
  run: (actor: Actor) => Promise<T>,
): Promise<T> {
  const actor = await deps.identity.authenticateAgent(community, ctx.credential);
  await deps.policy.admit(actor);
  try {
    const out = await run(actor);
    await deps.policy.audit({ community, actor, tool, ip: ctx.clientIp });
    return out;
  } catch (err) {
    await deps.policy.audit({ community, actor, tool, ip: ctx.clientIp, error: err });
    throw err;
  }
}

export function writeResponse(outcome: WriteOutcome, appliedMessage: string): z.input<typeof writeOutput> {
  if (outcome.status === 'pending_approval') {
    return { status: 'pending_approval', approval_id: outcome.approval_id, message: outcome.message };
  }
  return { status: 'applied', message: appliedMessage, ...presentWriteResult(outcome.result) };
}

export function communityTools(deps: SurfaceDeps, community: Community): ToolDef[] {
  const write = (ctx: RequestContext, tool: string, kind: WriteKind, payload: Record<string, unknown>, key: string | undefined) =>
    asAgent(deps, community, ctx, tool, (actor) => deps.writes.execute(actor, community, kind, payload, { idempotencyKey: key, ip: ctx.clientIp }));

  return [
    zodTool({
      name: 'search_community',
      title: 'Search this community',
      description:
        'Full-text search over topic titles, questions, replies and knowledge-base articles of this community, best first; accepted answers rank higher. Do this FIRST: almost every question has been asked before.',
      input: z.strictObject({
        query: z.string().trim().min(1).max(500).describe('What you are looking for, in plain words. "quoted phrase" must match exactly; -word excludes a word.'),
        mode: z.enum(SEARCH_MODES).default('lexical').describe('"lexical" (default) full-text; "semantic"/"hybrid" only where an embedding model is configured.'),
        filters: searchFilters.optional(),
      }),
      output: searchOutput,
      annotations: { title: 'Search this community', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ query, mode, filters }, ctx) =>
        asAgent(deps, community, ctx, 'search_community', () => deps.search.search([community], query, filters ?? {}, mode)),
    }),
    zodTool({
      name: 'suggest_answer',
      title: 'Suggest existing answers',
      description:
        'Given a question, returns the best accepted answers already in this community with a confidence in [0, 1], or says plainly that nothing matched and how to ask.',
      input: z.strictObject({
        question: z.string().trim().min(3).max(2000).describe('The question, as you would ask it.'),
        limit: z.number().int().min(1).max(10).default(3).describe('How many answers, 1-10. Default 3.'),
      }),
      output: suggestOutput,
      annotations: { title: 'Suggest existing answers', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ question, limit }, ctx) =>
        asAgent(deps, community, ctx, 'suggest_answer', () => deps.search.suggestAnswer([community], question, limit)),
    }),
    zodTool({
      name: 'get_topic',
      title: 'Read a topic',
      description: 'A topic or knowledge-base article with its posts in order (the first post is the question), by id or slug. Paginated with cursor.',
      input: z.strictObject({
        topic: ref('The topic id (UUID) or its slug (the last part of its URL).'),
        cursor: z.string().min(1).max(500).optional().describe('next_cursor of a previous call, for the next page of posts.'),
        limit: z.number().int().min(1).max(100).default(50).describe('Posts per page, 1-100. Default 50.'),
      }),
      output: getTopicOutput,
      annotations: { title: 'Read a topic', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ topic, cursor, limit }, ctx) =>
        asAgent(deps, community, ctx, 'get_topic', async (actor) => {
          const t = await deps.content.getTopic(actor, community, { topic, cursor, limit });
          return { topic: presentTopic(t.topic), posts: t.posts.map(presentPost), next_cursor: t.nextCursor };
        }),
    }),
    zodTool({
      name: 'list_topics',
      title: 'Browse topics',
      description: 'Browse topics: by category or tag, only unanswered or solved ones, sorted by latest activity, most replies, or creation.',
      input: z.strictObject({
        category: z.string().min(1).max(80).optional().describe('Category slug.'),
        tag: z.string().min(1).max(40).optional().describe('Only topics with this tag.'),
        filter: z.enum(['unanswered', 'solved']).optional().describe('"unanswered": no reply yet; "solved": has an accepted answer.'),
        sort: z.enum(['latest', 'top', 'created']).default('latest').describe('"latest" activity (default), "top" most replies, "created" newest first.'),
        cursor: z.string().min(1).max(500).optional().describe('next_cursor of a previous call.'),
        limit: z.number().int().min(1).max(100).default(20).describe('Topics per page, 1-100. Default 20.'),
      }),
      output: z.object({ topics: z.array(topicOut), next_cursor: z.string().nullable() }),
      annotations: { title: 'Browse topics', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: (input, ctx) =>
        asAgent(deps, community, ctx, 'list_topics', async (actor) => {
          const page = await deps.content.listTopics(actor, community, input);
          return { topics: page.topics.map(presentTopic), next_cursor: page.nextCursor };
        }),
    }),
    zodTool({
      name: 'list_categories',
      title: 'List categories',
      description: 'The categories of this community with their descriptions, kinds (discussion or knowledge_base) and topic counts.',
      input: z.strictObject({}),
      output: z.object({
        categories: z.array(
          z.object({ id: z.string(), slug: z.string(), name: z.string(), description: z.string(), kind: z.enum(['discussion', 'knowledge_base']), topic_count: z.number().int() }),
        ),
      }),
      annotations: { title: 'List categories', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: (_input, ctx) =>
        asAgent(deps, community, ctx, 'list_categories', async (actor) => ({
          categories: (await deps.content.listCategories(actor, community)).map((c) => ({
            id: c.id, slug: c.slug, name: c.name, description: c.description, kind: c.kind, topic_count: c.topicCount,
          })),
        })),
    }),
    zodTool({
      name: 'create_topic',
      title: 'Ask a question',
      description:
        'Start a topic (ask a question) in a discussion category; in a knowledge_base category this writes an article and needs "article:write". Search first. The community may queue it for approval: then status is "pending_approval" (not an error).',
      input: z.strictObject(questionFields),
      output: writeOutput,
      annotations: { title: 'Ask a question', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: ({ idempotency_key, ...payload }, ctx) =>
        asAgent(deps, community, ctx, 'create_topic', async (actor) => {
          // In a knowledge base a new topic is an article: a different write, with its own scope.
          const categories = await deps.content.listCategories(actor, community);
          const isArticle = categories.find((c) => c.slug === payload.category.trim().toLowerCase())?.kind === 'knowledge_base';
          const outcome = await deps.writes.execute(actor, community, isArticle ? 'article.write' : 'topic.create', payload, { idempotencyKey: idempotency_key, ip: ctx.clientIp });
          return writeResponse(outcome, isArticle ? 'The article was written.' : 'The topic was created.');
        }),
    }),
    zodTool({
      name: 'reply_to_topic',
      title: 'Reply to a topic',
      description: 'Add a post to a topic (an answer, or more detail). May be queued for approval ("pending_approval").',
      input: z.strictObject({
        topic: ref('The topic id or slug.'),
        body: z.string().trim().min(2).max(50_000).describe('The reply in Markdown.'),
        idempotency_key: idempotencyKey,
      }),
      output: writeOutput,
      annotations: { title: 'Reply to a topic', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: ({ idempotency_key, ...payload }, ctx) =>
        write(ctx, 'reply_to_topic', 'post.create', payload, idempotency_key).then((o) => writeResponse(o, 'The reply was posted.')),
    }),
    zodTool({
      name: 'mark_solution',
      title: 'Accept an answer',
      description: "Accept a post as the topic's solution, so search ranks it first for the next agent with the same problem.",
      input: z.strictObject({
        topic: ref('The topic id or slug.'),
        post: z.string().trim().min(1).max(100).describe('The id of the post that solved it.'),
        idempotency_key: idempotencyKey,
      }),
      output: writeOutput,
      annotations: { title: 'Accept an answer', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: ({ idempotency_key, ...payload }, ctx) =>
        write(ctx, 'mark_solution', 'solution.mark', payload, idempotency_key).then((o) => writeResponse(o, 'The answer is now the accepted solution.')),
    }),
    zodTool({
      name: 'get_approval',
      title: 'Follow a queued write',
      description:
        'Status of one of your writes that came back "pending_approval": pending, applied (with the created topic/post in result), rejected (with the reason) or failed.',
      input: z.strictObject({ approval_id: z.string().trim().min(1).max(100).describe('The approval_id returned by the write.') }),
      output: z.looseObject({ approval_id: z.string(), status: z.string() }),
      annotations: { title: 'Follow a queued write', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ approval_id }, ctx) =>
        asAgent(deps, community, ctx, 'get_approval', async (actor) => {
          const view = await deps.approvals.get(actor, community, approval_id);
          const result = view.result && typeof view.result === 'object' ? presentWriteResult(view.result as Record<string, unknown>) : null;
          return { ...view, result } as unknown as { approval_id: string; status: string };
        }),
    }),
  ];
}

export function communitySurface(deps: SurfaceDeps, community: Community, config: CommunityMcpConfig = DEFAULT_MCP_CONFIG): Surface {
  const tools = communityTools(deps, community);
  const instructions = communityInstructions(community.slug, community.name);
  return {
    serverInfo: { name: 'hamlet', title: `Hamlet: ${community.slug}`, version: deps.version },
    instructions: config.instructions
      ? `${instructions}\n\nFrom the administrators of ${community.name}:\n${config.instructions}`
      : instructions,
    tools: config.tool_mode === 'two-tool' ? twoToolMode(tools, { searchLimit: config.search_limit, logger: deps.logger }) : tools,
    prompts: [...communityPrompts(deps, community), ...configuredPrompts(deps, community, config)],
    resources: communityResources(deps, community),
    templates: communityTemplates(deps, community),
    // prompts/get, resources/read, subscribe and completion return community content: key required.
    guard: async (_method, ctx) => {
      await readerOf(deps, community, ctx);
    },
  };
}

