// Knowledge-base articles: a topic in a knowledge_base category whose first post is the one
// maintained body. Writing an article creates it or replaces its title and body, and every write
// keeps a numbered revision; the revisions are listed oldest first.
import { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { Store } from '../store/repositories.ts';
import type { Category, Community, Post, Topic } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { requireRead } from './authorization.ts';
import { upsertArticleSchema } from './content-inputs.ts';
import {
  authorFor,
  findCategory,
  findTopic,
  insertTopic,
  rowsOn,
  type ContentContext,
  type Loaded,
} from './content-lookup.ts';
import { DomainError } from './errors.ts';
import { topicRef } from './fields.ts';
import { slugify } from './slug.ts';
import { recordWebhookEvent } from './webhooks/outbox.ts';
import { currentRevisions, renderBody } from './rendering.ts';
import { mayRead } from './moderation-reads.ts';
import { parse } from './validate.ts';
import { authorView, postView, topicView, type PostView, type TopicView } from './views.ts';

export type ArticleResult = {
  topic: TopicView;
  post: PostView;
  revision: number;
  created: boolean;
};

/**
 * Creates the article (a topic in a knowledge_base category whose first post is the body) or,
 * when the slug exists, replaces its title/body. Every call keeps a revision.
 */
export async function upsertArticle(
  ctx: ContentContext,
  actor: Actor,
  community: Community,
  data: z.output<typeof upsertArticleSchema>,
  loaded: Loaded,
): Promise<ArticleResult> {
  const author = authorFor(actor, data);
  // One render for the article's body and its revision (the same Markdown).
  const rendered = renderBody(data.body);
  const result = await rowsOn(ctx.store, async (tx) => {
    const scope = tx.community(community.id);
    const category = loaded.category ?? (await findCategory(scope, community, data.category));
    if (category.kind !== 'knowledge_base') {
      throw new DomainError(
        'invalid_argument',
        `"${category.slug}" is a discussion category; articles live in a knowledge_base category.`,
      );
    }
    const slug = data.slug ?? slugify(data.title);
    const existing = await scope.topics.getBySlug(slug);
    if (existing) {
      if (existing.categoryId !== category.id) {
        throw new DomainError(
          'conflict',
          `The slug "${slug}" is used by another topic of "${community.slug}". Choose another slug.`,
        );
      }
      const first = (await scope.posts.getFirst(existing.id))!;
      const post = (await scope.posts.updateBody(first.id, data.body, data.createdAt, rendered))!;
      await scope.topics.update(existing.id, { title: data.title });
      if (data.tags) await scope.topics.setTags(existing.id, data.tags);
      const revision = await scope.articles.add({
        topicId: existing.id,
        title: data.title,
        body: data.body,
        rendered,
        author,
        createdAt: data.createdAt,
      });
      return articleWritten(ctx.config, tx, community, {
        topic: (await scope.topics.getById(existing.id))!,
        post,
        category,
        revision: revision.revision,
        created: false,
      });
    }
    const topic = await insertTopic(scope, community, {
      categoryId: category.id,
      slug,
      title: data.title,
      author,
      tags: data.tags ?? [],
      createdAt: data.createdAt,
    });
    const post = await scope.posts.create({
      topicId: topic.id,
      author,
      body: data.body,
      rendered,
      createdAt: data.createdAt,
    });
    const revision = await scope.articles.add({
      topicId: topic.id,
      title: data.title,
      body: data.body,
      rendered,
      author,
      createdAt: data.createdAt,
    });
    return articleWritten(ctx.config, tx, community, {
      topic: (await scope.topics.getById(topic.id))!,
      post,
      category,
      revision: revision.revision,
      created: true,
    });
  });
  ctx.emit({
    type: 'article.updated',
    communityId: community.id,
    topicId: result.topic.id,
    postId: result.post.id,
    revision: result.revision,
  });
  return result;
}

/** An article's views, and its article.updated event in the outbox of the write's transaction. */
async function articleWritten(
  config: Config,
  tx: Store,
  community: Community,
  w: { topic: Topic; post: Post; category: Category; revision: number; created: boolean },
): Promise<ArticleResult> {
  const result = {
    topic: topicView(config, community, w.topic, w.category),
    post: postView(config, community, w.topic, w.post),
    revision: w.revision,
    created: w.created,
  };
  await recordWebhookEvent(tx, community.id, 'article.updated', () => result);
  return result;
}

export async function listArticleRevisions(
  ctx: ContentContext,
  actor: Actor,
  community: Community,
  input: { topic: string },
) {
  requireRead(actor, community);
  const data = parse(z.object({ topic: topicRef }), input);
  const scope = ctx.store.community(community.id);
  const topic = await findTopic(scope, data.topic);
  // A deleted article (or one whose body is hidden) has no history to show either.
  if (!(await mayRead(ctx.store, actor, community, topic, undefined)))
    throw new DomainError('not_found', `No article "${data.topic}" in "${community.slug}".`);
  const revisions = await currentRevisions(scope, await scope.articles.list(topic.id));
  return revisions.map((r) => ({
    revision: r.revision,
    title: r.title,
    body: r.body,
    html: r.rendered!.html,
    author: authorView(r.author, community),
    createdAt: r.createdAt,
  }));
}
