// What the content service takes: each write's input as its author gives it (the approval queue
// stores exactly this), and the inputs of the reads, all built from the product's field schemas
// (./fields.ts). Fields only the system actor may set (original dates, imported authors) are added
// here and checked by the service.
import { z } from 'zod';
import {
  categoryRef,
  cursor,
  environment,
  pageLimit,
  pageNumber,
  pathSlug,
  questionBody,
  recordId,
  replyBody,
  sourcePosts,
  tag,
  tags,
  title,
  topicRef,
} from './fields.ts';
import type { WriteKind } from './vocabulary.ts';

const importedAuthor = z.object({ personId: z.uuid(), displayName: z.string().min(1).max(200) });

/** Fields only the system actor (imports, seeds) may set. */
const systemOnly = {
  createdAt: z.iso.datetime({ offset: true }).optional(),
  author: importedAuthor.optional(),
};

/** What each kind of write takes from its author (the approval queue stores exactly this). */
export const WRITE_INPUTS = {
  'topic.create': z.object({
    category: categoryRef,
    title,
    body: questionBody,
    tags: tags.default([]),
    environment: environment.optional(),
    sources: sourcePosts.optional(),
  }),
  'post.create': z.object({
    topic: topicRef,
    body: replyBody,
    environment: environment.optional(),
    sources: sourcePosts.optional(),
  }),
  'solution.mark': z.object({ topic: topicRef, post: recordId }),
  'article.write': z.object({
    category: categoryRef,
    slug: pathSlug.optional(),
    title,
    body: questionBody,
    tags: tags.optional(),
  }),
} satisfies Record<WriteKind, z.ZodObject>;

export const createTopicSchema = WRITE_INPUTS['topic.create'].extend(systemOnly);
export const replySchema = WRITE_INPUTS['post.create'].extend(systemOnly);
export const markSolutionSchema = WRITE_INPUTS['solution.mark'];
export const upsertArticleSchema = WRITE_INPUTS['article.write'].extend(systemOnly);

export const editPostSchema = z.object({
  post: recordId,
  body: replyBody,
  title: title.optional(),
});

export const getTopicSchema = z.object({
  topic: topicRef,
  cursor: cursor.nullish(),
  /** Page N of `limit` posts (used when no cursor is given). */
  page: pageNumber.optional(),
  limit: pageLimit(100, 50),
});

export const TOPIC_FILTERS = ['unanswered', 'solved'] as const;
export const TOPIC_SORTS = ['latest', 'top', 'created'] as const;
export const listTopicsSchema = z.object({
  category: categoryRef.optional(),
  tag: tag.optional(),
  filter: z.enum(TOPIC_FILTERS).optional(),
  sort: z.enum(TOPIC_SORTS).default('latest'),
  cursor: cursor.nullish(),
  /** Page N of `limit` topics (used when no cursor is given). */
  page: pageNumber.optional(),
  limit: pageLimit(100, 20),
});

export type ListTopicsInput = z.input<typeof listTopicsSchema>;
