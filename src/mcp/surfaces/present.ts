// Views (domain, camelCase) → tool output (snake_case, as the seed's results are).
import type { AuthorView, PostView, TopicView } from '../../domain/views.ts';
import type { z } from 'zod';
import type { postOut, topicOut } from './schemas.ts';

function author(a: AuthorView) {
  return a.kind === 'agent' ? { kind: a.kind, id: a.id, name: a.name, label: a.label } : { kind: a.kind, id: a.id, name: a.name };
}

export function presentTopic(t: TopicView): z.infer<typeof topicOut> {
  return {
    id: t.id,
    slug: t.slug,
    title: t.title,
    url: t.url,
    category: t.category,
    author: author(t.author),
    status: t.status,
    tags: t.tags,
    is_article: t.isArticle,
    solution_post_id: t.solutionPostId,
    reply_count: t.replyCount,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    last_posted_at: t.lastPostedAt,
  };
}

export function presentPost(p: PostView): z.infer<typeof postOut> {
  return {
    id: p.id,
    topic_id: p.topicId,
    position: p.position,
    url: p.url,
    author: author(p.author),
    body: p.body,
    is_question: p.isQuestion,
    is_solution: p.isSolution,
    created_at: p.createdAt,
    edited_at: p.editedAt,
  };
}

const isTopicView = (v: unknown): v is TopicView => typeof v === 'object' && v !== null && 'slug' in v && 'isArticle' in v;
const isPostView = (v: unknown): v is PostView => typeof v === 'object' && v !== null && 'topicId' in v && 'position' in v;

/** An applied write's result, whatever the write was: topic and/or post, presented. */
export function presentWriteResult(result: Record<string, unknown>): { topic?: z.infer<typeof topicOut>; post?: z.infer<typeof postOut> } {
  const out: { topic?: z.infer<typeof topicOut>; post?: z.infer<typeof postOut> } = {};
  if (isTopicView(result)) out.topic = presentTopic(result);
  if (isPostView(result)) out.post = presentPost(result);
  if (isTopicView(result.topic)) out.topic = presentTopic(result.topic);
  if (isPostView(result.post)) out.post = presentPost(result.post);
  return out;
}
