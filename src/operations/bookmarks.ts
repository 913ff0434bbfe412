// A person's bookmarks (src/domain/bookmarks/): bookmark a topic or one post, take it back, list
// them newest first. People only, on the web and REST (a person's user key); not MCP tools: agents
// have no bookmarks, and the community server's default tools stay the nine.
import { z } from 'zod';
import { cursor, pageLimit, recordId, topicRef } from '../domain/fields.ts';
import type { BookmarkView } from '../domain/bookmarks/service.ts';
import { bookmarkSet } from '../domain/writes/bookmark-set.ts';
import { defineOperation } from './operation.ts';
import { presentAuthor } from './present.ts';
import { authorOut } from './schemas.ts';

const selfReason = z.literal('self').describe('Your own bookmark: it applies at once.');

const bookmarkOut = z.object({
  id: z.string(),
  kind: z.enum(['topic', 'post']).describe('A whole topic, or one post of it.'),
  topic: z.object({ id: z.string(), slug: z.string(), title: z.string() }),
  post: z
    .object({
      id: z.string(),
      position: z.number().int().describe('1: the question (or the article); then the replies.'),
      author: authorOut,
      excerpt: z.string().describe('The start of the post (Markdown).'),
    })
    .nullable()
    .describe('The bookmarked post; null for a bookmark of the whole topic.'),
  url: z.string(),
  created_at: z.string().describe('When you bookmarked it.'),
});

const present = (b: BookmarkView): z.output<typeof bookmarkOut> => ({
  id: b.id,
  kind: b.kind,
  topic: b.topic,
  post: b.post ? { ...b.post, author: presentAuthor(b.post.author) } : null,
  url: b.url,
  created_at: b.createdAt,
});

export const listBookmarks = defineOperation({
  name: 'list_bookmarks',
  server: 'community',
  title: 'My bookmarks',
  description:
    'The topics and posts you bookmarked here, newest first. Only what you may still read is listed, so a page may be short: follow next_cursor until it is null.',
  input: z.strictObject({
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    limit: pageLimit(50, 20).describe('Bookmarks per page, 1-50. Default 20.'),
    among: z
      .array(recordId)
      .max(100)
      .optional()
      .describe('Only your bookmarks of these topic or post ids (not paged).'),
  }),
  output: z.object({ bookmarks: z.array(bookmarkOut), next_cursor: z.string().nullable() }),
  credential: 'community',
  run: async (ctx, input) => {
    const out = await ctx.services.bookmarks.list(ctx.actor, ctx.community, input);
    return { bookmarks: out.bookmarks.map(present), next_cursor: out.nextCursor };
  },
});

export const setBookmark = defineOperation({
  name: 'bookmark',
  server: 'community',
  title: 'Bookmark',
  description:
    'Bookmark a topic or one post (bookmarked: true), or take the bookmark back (false). Name either a topic or a post.',
  input: z.strictObject({
    topic: topicRef.optional().describe('The topic id or slug (or give a post).'),
    post: recordId.optional().describe('The post id (or give a topic).'),
    bookmarked: z.boolean().describe('true: bookmark it; false: remove the bookmark.'),
  }),
  output: z.object({
    kind: z.enum(['topic', 'post']),
    id: z.string().describe('The topic or post id.'),
    topic_id: z.string(),
    bookmarked: z.boolean(),
    changed: z.boolean().describe('false: it already was (or was not) bookmarked.'),
    reason: selfReason,
  }),
  credential: 'community',
  write: true,
  run: (ctx, input) =>
    ctx.services.bookmarks.write(ctx.actor, ctx.community, bookmarkSet, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    }),
});

export const BOOKMARK_OPERATIONS = [setBookmark, listBookmarks];
