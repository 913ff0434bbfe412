// post.edit: replaces a post's body (and, for the question, the topic's title): its author within
// the edit window, or a moderator. A question keeps the question's length limits; an article is
// revised instead (article.write, every revision kept). Every version is kept (../post-history.ts).
// An edit keeps its @mentions linked; it notifies nobody (only new posts do).
import { z } from 'zod';
import type { Post, Topic, Category } from '../../store/types.ts';
import { requireCanEditPost, requireWrite } from '../authorization.ts';
import { editPostSchema } from '../content-inputs.ts';
import { categoryOf } from '../content-lookup.ts';
import { renderWritten } from '../content-changes.ts';
import { DomainError } from '../errors.ts';
import { questionBody } from '../fields.ts';
import { refuseEdit } from '../moderation-reads.ts';
import { resolveMentions } from '../notifications/mentions.ts';
import { keepVersions } from '../post-history.ts';
import { uploadsIn } from '../uploads/links.ts';
import { parse } from '../validate.ts';
import { postView, topicView, type PostView, type TopicView } from '../views.ts';
import type { UseCase } from './use-case.ts';
import type { Rendered } from '../../store/types.ts';

type Editing = { post: Post; topic: Topic; category: Category; rendered: Rendered };

export const postEdit: UseCase<
  z.output<typeof editPostSchema>,
  Editing,
  { topic: TopicView; post: PostView }
> = {
  name: 'post.edit',
  contract: editPostSchema,
  guard: async (ctx) => requireWrite(ctx.actor, ctx.community),
  async load({ store, community, config }, data) {
    const scope = store.community(community.id);
    const post = await scope.posts.getById(data.post);
    if (!post) throw new DomainError('not_found', `No post "${data.post}" in "${community.slug}".`);
    const topic = (await scope.topics.getById(post.topicId))!;
    const mentions = await resolveMentions(store, community, data.body);
    const uploads = await uploadsIn(store, community, data.body);
    const rendered = renderWritten(config, community, data.body, { mentions, uploads });
    return { post, topic, category: await categoryOf(scope, topic), rendered };
  },
  async policy(ctx, data, { post, topic, category }) {
    refuseEdit(topic, post);
    if (category.kind === 'knowledge_base')
      throw new DomainError(
        'conflict',
        `"${topic.title}" is an article: revise the article instead (every revision is kept).`,
      );
    await requireCanEditPost(ctx.store, ctx.actor, ctx.community, post, ctx.now);
    if (post.position === 1) parse(z.object({ body: questionBody }), { body: data.body });
    else if (data.title !== undefined)
      throw new DomainError(
        'invalid_argument',
        'Only the question (the first post) has a title to change.',
      );
    return { mode: 'apply', reason: 'editor' };
  },
  async apply(step, data, { topic, category, rendered }) {
    const { tx, actor, community, config } = step;
    const scope = tx.community(community.id);
    // The version this edit replaces, as it is now (another edit may have landed since the load).
    const post = (await scope.posts.getById(data.post))!;
    const edited = (await scope.posts.updateBody(post.id, data.body, undefined, rendered))!;
    const updated =
      data.title !== undefined && data.title !== topic.title
        ? (await scope.topics.update(topic.id, { title: data.title }))!
        : topic;
    await keepVersions(
      tx,
      actor,
      community,
      { post, title: topic.title },
      { post: edited, title: updated.title },
    );
    return {
      topic: topicView(config, community, updated, category),
      post: postView(config, community, updated, edited),
    };
  },
  audit: (r) => ({ targets: { topic_id: r.topic.id, post_id: r.post.id } }),
};
