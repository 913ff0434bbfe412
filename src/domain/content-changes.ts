// Changing what was posted: accepting a reply as a topic's solution (the asker or a moderator),
// withdrawing the acceptance, and editing a post (its author within the edit window, or a
// moderator; every version kept, ./post-history.ts; articles are revised through ./articles.ts
// instead, every revision kept).
import { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { Community, Rendered } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { requireCanEditPost, requireCanMarkSolution, requireWrite } from './authorization.ts';
import { editPostSchema, markSolutionSchema } from './content-inputs.ts';
import { categoryOf, type ContentContext, findTopic, type Loaded } from './content-lookup.ts';
import { DomainError } from './errors.ts';
import { refuseEdit } from './moderation-reads.ts';
import { questionBody, topicRef } from './fields.ts';
import { recordWebhookEvent } from './webhooks/outbox.ts';
import { renderBody } from './rendering.ts';
import { mentionLinks, resolveMentions } from './notifications/mentions.ts';
import { imageLinks, uploadsIn } from './uploads/links.ts';
import { parse } from './validate.ts';
import { postView, topicView, type PostView, type TopicView } from './views.ts';
import { keepVersions } from './post-history.ts';

export async function markSolution(
  ctx: ContentContext,
  actor: Actor,
  community: Community,
  data: z.output<typeof markSolutionSchema>,
  loaded: Loaded,
): Promise<TopicView> {
  const { topic, category, postId } = await ctx.store.transaction(async (tx) => {
    const scope = tx.community(community.id);
    const topic = loaded.topic ?? (await findTopic(scope, data.topic));
    await requireCanMarkSolution(tx, actor, community, topic);
    const post = await scope.posts.getById(data.post);
    if (!post || post.topicId !== topic.id) {
      throw new DomainError(
        'not_found',
        `No post "${data.post}" in the topic "${topic.title}". Use a post id from get_topic of this topic.`,
      );
    }
    if (post.position === 1) {
      throw new DomainError(
        'invalid_argument',
        'The first post is the question itself; accept one of the replies as the solution.',
      );
    }
    const updated = (await scope.topics.update(topic.id, { solutionPostId: post.id }))!;
    const category = await categoryOf(scope, topic);
    await recordWebhookEvent(tx, community.id, 'solution.marked', () => ({
      topic: topicView(ctx.config, community, updated, category),
      post: postView(ctx.config, community, updated, post),
    }));
    return { topic: updated, category, postId: post.id };
  });
  ctx.emit({ type: 'solution.marked', communityId: community.id, topicId: topic.id, postId });
  return topicView(ctx.config, community, topic, category);
}

/** Withdraws the accepted answer (same people as accepting one); the topic is unsolved again. */
export async function clearSolution(
  ctx: ContentContext,
  actor: Actor,
  community: Community,
  input: { topic: string },
): Promise<TopicView> {
  requireWrite(actor, community);
  const data = parse(z.object({ topic: topicRef }), input);
  const { topic, category } = await ctx.store.transaction(async (tx) => {
    const scope = tx.community(community.id);
    const found = await findTopic(scope, data.topic);
    await requireCanMarkSolution(tx, actor, community, found);
    const topic = found.solutionPostId
      ? (await scope.topics.update(found.id, { solutionPostId: null }))!
      : found;
    return { topic, category: await categoryOf(scope, found) };
  });
  return topicView(ctx.config, community, topic, category);
}

/**
 * Replaces a post's body (and, for the question, the topic's title): its author within the edit
 * window, or a moderator (./authorization.ts). A question keeps the question's length limits;
 * articles are revised instead (every revision kept).
 */
export async function editPost(
  ctx: ContentContext,
  actor: Actor,
  community: Community,
  input: { post: string; body: string; title?: string },
  now = new Date(),
): Promise<{ topic: TopicView; post: PostView }> {
  requireWrite(actor, community);
  const data = parse(editPostSchema, input);
  // An edit keeps its @mentions linked (it notifies nobody: only new posts do).
  const mentions = await resolveMentions(ctx.store, community, data.body);
  const uploads = await uploadsIn(ctx.store, community, data.body);
  const rendered = renderWritten(ctx.config, community, data.body, { mentions, uploads });
  const result = await ctx.store.transaction(async (tx) => {
    const scope = tx.community(community.id);
    const post = await scope.posts.getById(data.post);
    if (!post) throw new DomainError('not_found', `No post "${data.post}" in "${community.slug}".`);
    const topic = (await scope.topics.getById(post.topicId))!;
    refuseEdit(topic, post);
    const category = await categoryOf(scope, topic);
    if (category.kind === 'knowledge_base')
      throw new DomainError(
        'conflict',
        `"${topic.title}" is an article: revise the article instead (every revision is kept).`,
      );
    await requireCanEditPost(tx, actor, community, post, now);
    if (post.position === 1) parse(z.object({ body: questionBody }), { body: data.body });
    else if (data.title !== undefined)
      throw new DomainError(
        'invalid_argument',
        'Only the question (the first post) has a title to change.',
      );
    const edited = (await scope.posts.updateBody(post.id, data.body, undefined, rendered))!;
    const updated =
      data.title !== undefined && data.title !== topic.title
        ? (await scope.topics.update(topic.id, { title: data.title }))!
        : topic;
    // Every version is kept: the one this edit replaces (when it is the first) and the new one.
    await keepVersions(
      tx,
      actor,
      community,
      { post, title: topic.title },
      { post: edited, title: updated.title },
    );
    return { topic: updated, category, post: edited };
  });
  return {
    topic: topicView(ctx.config, community, result.topic, result.category),
    post: postView(ctx.config, community, result.topic, result.post),
  };
}

/** A written body's render: its @mentions linked, the community's own uploaded images shown. */
export function renderWritten(
  config: Config,
  community: Community,
  body: string,
  loaded: Pick<Loaded, 'mentions' | 'uploads'>,
): Rendered {
  return renderBody(
    body,
    mentionLinks(config, community, loaded.mentions),
    imageLinks(config, community, loaded.uploads),
  );
}
