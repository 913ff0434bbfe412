// The operations of one community's server: search, suggest, read and browse, ask, reply, accept an
// answer, follow a queued write. Each needs a credential of that community (reading included).
import { z } from 'zod';
import {
  categoryRef,
  cursor,
  LIMITS,
  pageLimit,
  pageNumber,
  question,
  recordId,
  replyBody,
  searchFilters,
  searchQuery,
  span,
  tag,
  topicRef,
} from '../domain/fields.ts';
import { TOPIC_FILTERS, TOPIC_SORTS } from '../domain/content.ts';
import { defineOperation, type OperationContext } from './operation.ts';
import {
  presentApproval,
  presentListedCategory,
  presentTopic,
  presentTopicPage,
  presentWrite,
} from './present.ts';
import {
  SEARCH_MODES,
  alternativesIn,
  approvalOut,
  categoryOut,
  environmentIn,
  sourcesIn,
  getTopicOutput,
  idempotencyKey,
  questionFields,
  searchOutput,
  suggestOutput,
  topicOut,
  writeOutput,
} from './schemas.ts';
import type { Community } from '../store/types.ts';
import type { WriteKind } from '../domain/vocabulary.ts';
import type { WriteResult } from '../domain/writes/write-service.ts';
import { beforePosting, notPosted, type SimilarSolved } from './similar-solved.ts';

type Ctx = OperationContext<Community>;

/** A write's answer with the solved topics that closely matched it, when there were any. */
export function withSimilar<T extends object>(
  result: T,
  similar: SimilarSolved[],
): T & { similar_solved?: SimilarSolved[] } {
  return similar.length ? { ...result, similar_solved: similar } : result;
}

/** Runs a write through the domain's write path; the call's audit entry records what it wrote. */
async function write(
  ctx: Ctx,
  kind: WriteKind,
  payload: Record<string, unknown>,
  key: string | undefined,
): Promise<WriteResult> {
  return ctx.services.writes.execute(ctx.actor, ctx.community, kind, payload, {
    idempotencyKey: key,
    ip: ctx.ip,
    audit: ctx.audit,
  });
}

export const searchCommunity = defineOperation({
  name: 'search_community',
  server: 'community',
  title: 'Search this community',
  description:
    'Full-text search over topic titles, questions, replies and knowledge-base articles of this community, best first; accepted answers rank higher. Do this FIRST: almost every question has been asked before.',
  input: z.strictObject({
    query: searchQuery.describe(
      `What you are looking for, in plain words (${span(LIMITS.searchQuery)} characters). "quoted phrase" must match exactly; -word excludes a word.`,
    ),
    mode: z
      .enum(SEARCH_MODES)
      .default('lexical')
      .describe(
        '"lexical" (default) full-text; "semantic"/"hybrid" only where an embedding model is configured.',
      ),
    filters: searchFilters.optional(),
    alternatives: alternativesIn,
  }),
  output: searchOutput,
  credential: 'community',
  mcp: true,
  run: (ctx, { query, mode, filters, alternatives }) =>
    ctx.services.search.search([ctx.community], query, filters ?? {}, mode, { alternatives }),
});

export const suggestAnswer = defineOperation({
  name: 'suggest_answer',
  server: 'community',
  title: 'Suggest existing answers',
  description:
    'Given a question, returns the best accepted answers already in this community with a confidence in [0, 1], or says plainly that nothing matched and how to ask.',
  input: z.strictObject({
    question: question.describe(
      `The question, as you would ask it (${span(LIMITS.question)} characters).`,
    ),
    limit: pageLimit(10, 3).describe('How many answers, 1-10. Default 3.'),
    alternatives: alternativesIn,
  }),
  output: suggestOutput,
  credential: 'community',
  mcp: true,
  // Ranking asks the embedding endpoint when one is configured, which may take seconds.
  longRunning: true,
  run: (ctx, { question: q, limit, alternatives }) =>
    ctx.services.search.suggestAnswer([ctx.community], q, limit, { alternatives }),
});

export const getTopic = defineOperation({
  name: 'get_topic',
  server: 'community',
  title: 'Read a topic',
  description:
    'A topic or knowledge-base article with its posts in order (the first post is the question), by id or slug. Paginated with cursor; a page holds at most 512 KB of Markdown, so long posts make shorter pages.',
  input: z.strictObject({
    topic: topicRef.describe('The topic id (UUID) or its slug (the last part of its URL).'),
    cursor: cursor
      .optional()
      .describe('next_cursor of a previous call, for the next page of posts.'),
    page: pageNumber
      .optional()
      .describe(
        'Page number (1 is the first), of `limit` posts each; used when no cursor is given.',
      ),
    limit: pageLimit(100, 50).describe('Posts per page, 1-100. Default 50.'),
    order: z
      .enum(['position', 'best'])
      .default('position')
      .describe(
        '"position" (default): as posted. "best": the question, then the accepted answer, then by score, then as posted (within the page).',
      ),
  }),
  output: getTopicOutput,
  credential: 'community',
  mcp: true,
  run: async (ctx, { order, ...input }) => {
    const shown = ctx.showsHtml ? 'html' : 'markdown';
    const page = await ctx.services.content.getTopic(ctx.actor, ctx.community, input, shown);
    const posts = await ctx.services.feedback.topicPage(ctx.community, page.posts, order);
    return presentTopicPage({ ...page, posts }, ctx.showsHtml);
  },
});

export const listTopics = defineOperation({
  name: 'list_topics',
  server: 'community',
  title: 'Browse topics',
  description:
    'Browse topics: by category or tag, only unanswered or solved ones, sorted by latest activity, most replies, or creation.',
  input: z.strictObject({
    category: categoryRef.optional().describe('Category slug.'),
    tag: tag.optional().describe('Only topics with this tag.'),
    filter: z
      .enum(TOPIC_FILTERS)
      .optional()
      .describe('"unanswered": no reply yet; "solved": has an accepted answer.'),
    sort: z
      .enum(TOPIC_SORTS)
      .default('latest')
      .describe('"latest" activity (default), "top" most replies, "created" newest first.'),
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    page: pageNumber
      .optional()
      .describe(
        'Page number (1 is the first), of `limit` topics each; used when no cursor is given.',
      ),
    limit: pageLimit(100, 20).describe('Topics per page, 1-100. Default 20.'),
  }),
  output: z.object({ topics: z.array(topicOut), next_cursor: z.string().nullable() }),
  credential: 'community',
  mcp: true,
  run: async (ctx, input) => {
    const page = await ctx.services.content.listTopics(ctx.actor, ctx.community, input);
    return { topics: page.topics.map(presentTopic), next_cursor: page.nextCursor };
  },
});

export const listCategories = defineOperation({
  name: 'list_categories',
  server: 'community',
  title: 'List categories',
  description:
    'The categories of this community with their descriptions, kinds (discussion or knowledge_base) and topic counts.',
  input: z.strictObject({}),
  output: z.object({ categories: z.array(categoryOut) }),
  credential: 'community',
  mcp: true,
  run: async (ctx) => ({
    categories: (await ctx.services.content.listCategories(ctx.actor, ctx.community)).map(
      presentListedCategory,
    ),
  }),
});

export const createTopic = defineOperation({
  name: 'create_topic',
  server: 'community',
  title: 'Ask a question',
  description:
    'Start a topic (ask a question) in a discussion category; in a knowledge_base category this writes an article and needs "article:write". Search first. The community may queue it for approval: then status is "pending_approval" (not an error).',
  input: z.strictObject(questionFields),
  output: writeOutput,
  credential: 'community',
  mcp: true,
  write: true,
  run: async (ctx, { idempotency_key, ...payload }) => {
    // Checked, loaded and authorized before looking for similar topics; the scope depends on the
    // category (a knowledge base takes articles: article:write).
    // A retry of a write already made (its idempotency key) is answered before anything else.
    const writes = ctx.services.writes;
    const prepared = await writes.prepare(ctx.actor, ctx.community, 'topic.create', payload, {
      idempotencyKey: idempotency_key,
      ip: ctx.ip,
      audit: ctx.audit,
    });
    const check = prepared.answered ? undefined : await beforePosting(ctx, ctx.community, payload);
    if (check && !check.post) return notPosted(check.similar);
    await ctx.report.progress(2, 3, 'Posting the question');
    const outcome = await writes.run(prepared);
    await ctx.report.progress(
      3,
      3,
      outcome.status === 'applied' ? 'Posted' : 'Queued for approval',
    );
    return withSimilar(
      presentWrite(
        outcome,
        outcome.kind === 'article.write' ? 'The article was written.' : 'The topic was created.',
      ),
      check?.similar ?? [],
    );
  },
});

export const replyToTopic = defineOperation({
  name: 'reply_to_topic',
  server: 'community',
  title: 'Reply to a topic',
  description:
    'Add a post to a topic (an answer, or more detail). May be queued for approval ("pending_approval").',
  input: z.strictObject({
    topic: topicRef.describe('The topic id or slug.'),
    body: replyBody.describe(`The reply in Markdown, ${span(LIMITS.replyBody)} characters.`),
    environment: environmentIn,
    sources: sourcesIn,
    idempotency_key: idempotencyKey,
  }),
  output: writeOutput,
  credential: 'community',
  mcp: true,
  scope: 'post:create',
  write: true,
  run: async (ctx, { idempotency_key, ...payload }) =>
    presentWrite(
      await write(ctx, 'post.create', payload, idempotency_key),
      'The reply was posted.',
    ),
});

export const markSolution = defineOperation({
  name: 'mark_solution',
  server: 'community',
  title: 'Accept an answer',
  description:
    "Accept a post as the topic's solution, so search ranks it first for the next agent with the same problem.",
  input: z.strictObject({
    topic: topicRef.describe('The topic id or slug.'),
    post: recordId.describe('The id of the post that solved it.'),
    idempotency_key: idempotencyKey,
  }),
  output: writeOutput,
  credential: 'community',
  mcp: true,
  scope: 'solution:mark',
  write: true,
  run: async (ctx, { idempotency_key, ...payload }) =>
    presentWrite(
      await write(ctx, 'solution.mark', payload, idempotency_key),
      'The answer is now the accepted solution.',
    ),
});

export const getApproval = defineOperation({
  name: 'get_approval',
  server: 'community',
  title: 'Follow a queued write',
  description:
    'Status of one of your writes that came back "pending_approval": pending, applied (with the created topic/post in result), rejected (with the reason) or failed.',
  input: z.strictObject({
    approval_id: recordId.describe('The approval_id returned by the write.'),
  }),
  output: approvalOut,
  credential: 'community',
  mcp: true,
  run: async (ctx, { approval_id }) =>
    presentApproval(await ctx.services.approvals.get(ctx.actor, ctx.community, approval_id)),
});

/** The community server's tools, in the order tools/list shows them. */
export const COMMUNITY_OPERATIONS = [
  searchCommunity,
  suggestAnswer,
  getTopic,
  listTopics,
  listCategories,
  createTopic,
  replyToTopic,
  markSolution,
  getApproval,
];
