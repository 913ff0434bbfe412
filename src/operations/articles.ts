// Knowledge-base articles beyond creating one (create_topic in a knowledge-base category does
// that): revising an article's one maintained body, and reading its revisions. And withdrawing an
// accepted answer. The REST API and the web offer these; MCP keeps to its nine tools.
import { z } from 'zod';
import { LIMITS, pathSlug, questionBody, span, tags, title, topicRef } from '../domain/fields.ts';
import { DomainError } from '../domain/errors.ts';
import { solutionClear } from '../domain/writes/solution-clear.ts';
import { defineOperation } from './operation.ts';
import { presentAuthor, presentTopic, presentWrite } from './present.ts';
import { authorOut, idempotencyKey, topicOut, writeOutput } from './schemas.ts';

export const reviseArticle = defineOperation({
  name: 'revise_article',
  server: 'community',
  title: 'Revise an article',
  description:
    'Replaces the title and body of a knowledge-base article (every revision is kept). Members of the community, and its agents with "article:write"; the approval policy for articles applies.',
  input: z.strictObject({
    article: pathSlug.describe('The article slug (the last part of its URL).'),
    title: title.describe(`The title, ${span(LIMITS.title)} characters.`),
    body: questionBody.describe(
      `The whole new body in Markdown, ${span(LIMITS.questionBody)} characters.`,
    ),
    tags: tags.optional().describe('Replaces the tags when given.'),
    idempotency_key: idempotencyKey,
  }),
  output: writeOutput,
  credential: 'community',
  scope: 'article:write',
  write: true,
  run: async (ctx, { article, idempotency_key, ...fields }) => {
    const { topic } = await ctx.services.content.getTopic(ctx.actor, ctx.community, {
      topic: article,
      limit: 1,
    });
    if (!topic.isArticle)
      throw new DomainError(
        'invalid_argument',
        `"${article}" is a discussion topic, not an article: reply to it instead.`,
      );
    const payload = { category: topic.category.slug, slug: topic.slug, ...fields };
    const outcome = await ctx.services.writes.execute(
      ctx.actor,
      ctx.community,
      'article.write',
      payload,
      { idempotencyKey: idempotency_key, ip: ctx.ip, audit: ctx.audit },
    );
    return presentWrite(outcome, 'The article was revised.');
  },
});

const revisionOut = z.object({
  revision: z.number().int(),
  title: z.string(),
  body: z.string().describe('The body of this revision, as Markdown.'),
  author: authorOut,
  created_at: z.string(),
});

export const listArticleRevisions = defineOperation({
  name: 'list_article_revisions',
  server: 'community',
  title: 'Revisions of an article',
  description: 'Every revision of a knowledge-base article, oldest first, with its author.',
  input: z.strictObject({ article: topicRef.describe('The article slug or id.') }),
  output: z.object({ revisions: z.array(revisionOut) }),
  credential: 'community',
  run: async (ctx, { article }) => ({
    revisions: (
      await ctx.services.content.listArticleRevisions(ctx.actor, ctx.community, { topic: article })
    ).map((r) => ({
      revision: r.revision,
      title: r.title,
      body: r.body,
      ...(ctx.showsHtml ? { html: r.html } : {}),
      author: presentAuthor(r.author),
      created_at: r.createdAt,
    })),
  }),
});

export const unmarkSolution = defineOperation({
  name: 'unmark_solution',
  server: 'community',
  title: 'Withdraw an accepted answer',
  description:
    'The topic has no accepted answer any more. The topic author, a moderator, or an agent with "solution:mark".',
  input: z.strictObject({ topic: topicRef.describe('The topic id or slug.') }),
  output: z.object({ topic: topicOut }),
  credential: 'community',
  scope: 'solution:mark',
  write: true,
  run: async (ctx, input) => {
    const topic = await ctx.services.writes.runner.run(
      solutionClear,
      ctx.actor,
      ctx.community,
      input,
      { ip: ctx.ip, audit: ctx.audit },
    );
    return { topic: presentTopic(topic) };
  },
});

export const ARTICLE_OPERATIONS = [reviseArticle, listArticleRevisions, unmarkSolution];
