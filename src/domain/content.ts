// Categories, topics, posts and solutions of one community, and (through ./articles.ts) its
// knowledge-base articles. Every method takes the acting Actor and the (already resolved)
// Community, works through `store.community(community.id)` only, and returns views. The reads
// validate their input (./content-inputs.ts, built from ./fields.ts) and check access
// (./authorization.ts) themselves; the write* methods write the rows of a new topic, reply,
// accepted answer or article for the write runner (./writes/), which validated, loaded and
// authorized the write first: nothing else calls them (test/architecture.test.ts checks it).
import type { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { CommunityScope, Store } from '../store/repositories.ts';
import type { Category, Community, Topic, TopicSort, TopicFilter } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { requireRead } from './authorization.ts';
import { listArticleRevisions, upsertArticle, type ArticleResult } from './articles.ts';
import { markSolution, renderWritten } from './content-changes.ts';
import {
  createTopicSchema,
  getTopicSchema,
  listTopicsSchema,
  markSolutionSchema,
  replySchema,
  upsertArticleSchema,
  type ListTopicsInput,
} from './content-inputs.ts';
import {
  authorFor,
  categoryOf,
  type ContentContext,
  findCategory,
  findTopic,
  insertTopic,
  type Loaded,
  rowsOn,
} from './content-lookup.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from './cursor.ts';
import { DomainError } from './errors.ts';
import {
  pinnedFirst,
  refuseReply,
  topicLinks,
  visiblePosts,
  visibleTopic,
  type TopicLink,
} from './moderation-reads.ts';
import { ContentEvents, type ContentEvent } from './events.ts';
import { recordWebhookEvent } from './webhooks/outbox.ts';
import { fitPage, RENDER_LIMITS, type Shown } from './rendering.ts';
import { shownInTopic, shownTopics } from './moderation/hidden.ts';
import { parse } from './validate.ts';
import {
  categoryView,
  postView,
  topicView,
  type CategoryView,
  type PostView,
  type TopicView,
} from './views.ts';

export {
  TOPIC_FILTERS,
  TOPIC_SORTS,
  WRITE_INPUTS,
  type ListTopicsInput,
} from './content-inputs.ts';

/** A keyset's id where only its position counts (posts are paged by position alone). */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
export type { ArticleResult } from './articles.ts';

export type TopicWithPosts = {
  topic: TopicView;
  posts: PostView[];
  nextCursor: string | null;
  duplicateOf?: TopicLink;
  duplicates?: TopicLink[];
};

export class ContentService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    readonly events: ContentEvents = new ContentEvents(),
  ) {}

  private scope(community: Community, store: Store = this.store): CommunityScope {
    return store.community(community.id);
  }

  async listCategories(
    actor: Actor,
    community: Community,
  ): Promise<(CategoryView & { topicCount: number })[]> {
    requireRead(actor, community);
    const categories = await this.scope(community).categories.listWithCounts();
    return categories.map((c) => ({ ...categoryView(c), topicCount: c.topicCount }));
  }

  /**
   * The rows of a new topic, for a caller that has authorized the write and parsed its payload
   * already (the write runner): what `loaded` holds is not read again.
   */
  async writeTopic(
    actor: Actor,
    community: Community,
    data: z.output<typeof createTopicSchema>,
    loaded: Loaded,
  ): Promise<{ topic: TopicView; post: PostView; about: Topic }> {
    const author = authorFor(actor, data);
    const rendered = renderWritten(this.config, community, data.body, loaded);
    const result = await rowsOn(this.store, async (tx) => {
      const scope = this.scope(community, tx);
      const category = loaded.category ?? (await findCategory(scope, community, data.category));
      if (category.kind === 'knowledge_base') {
        throw new DomainError(
          'invalid_argument',
          `"${category.slug}" is a knowledge base, which holds articles rather than topics: write an article there (it needs the "article:write" scope), or pick a discussion category.`,
        );
      }
      const topic = await insertTopic(scope, community, {
        categoryId: category.id,
        title: data.title,
        author,
        tags: data.tags,
        createdAt: data.createdAt,
      });
      const post = await scope.posts.create({
        topicId: topic.id,
        author,
        body: data.body,
        rendered,
        createdAt: data.createdAt,
      });
      const fresh = withFirstPost(topic, post);
      const views = {
        topic: topicView(this.config, community, fresh, category),
        post: postView(this.config, community, fresh, post),
      };
      await recordWebhookEvent(tx, community.id, 'topic.created', () => views);
      return { ...views, about: fresh };
    });
    this.emit({
      type: 'topic.created',
      communityId: community.id,
      topicId: result.topic.id,
      postId: result.post.id,
    });
    return result;
  }

  /** The rows of a reply, for a caller that has authorized the write and parsed its payload. */
  async writeReply(
    actor: Actor,
    community: Community,
    data: z.output<typeof replySchema>,
    loaded: Loaded,
  ): Promise<PostView> {
    const author = authorFor(actor, data);
    const rendered = renderWritten(this.config, community, data.body, loaded);
    const { topic, post } = await rowsOn(this.store, async (tx) => {
      const scope = this.scope(community, tx);
      const topic = loaded.topic ?? (await findTopic(scope, data.topic));
      const category = await categoryOf(scope, topic);
      if (category.kind === 'knowledge_base') {
        throw new DomainError(
          'conflict',
          `"${topic.title}" is a knowledge-base article with one maintained body: revise the article (write it again under the same title) instead of replying.`,
        );
      }
      refuseReply(topic);
      const post = await scope.posts.create({
        topicId: topic.id,
        author,
        body: data.body,
        rendered,
        createdAt: data.createdAt,
      });
      const view = postView(this.config, community, topic, post);
      await recordWebhookEvent(tx, community.id, 'post.created', async () => ({
        topic: topicView(this.config, community, (await scope.topics.getById(topic.id))!, category),
        post: view,
      }));
      return { topic, post: view };
    });
    this.emit({
      type: 'post.created',
      communityId: community.id,
      topicId: topic.id,
      postId: post.id,
    });
    return post;
  }

  /**
   * A topic and one page of its posts: up to `limit` posts, fewer when they would pass the page's
   * byte budget (./rendering.ts) measured in what the caller shows (`shown`).
   */
  async getTopic(
    actor: Actor,
    community: Community,
    input: z.input<typeof getTopicSchema>,
    shown: Shown = 'markdown',
  ): Promise<TopicWithPosts> {
    requireRead(actor, community);
    const data = parse(getTopicSchema, input);
    const scope = this.scope(community);
    const { topic, moderator } = await visibleTopic(
      this.store,
      actor,
      community,
      await findTopic(scope, data.topic),
    );
    const category = await categoryOf(scope, topic);
    const page = await scope.posts.listByTopic(topic.id, {
      after:
        decodeCursor(`posts:${topic.id}`, data.cursor, CURSOR_SHAPES.byCount) ??
        (data.page && data.page > 1
          ? { key: (data.page - 1) * data.limit, id: NIL_UUID }
          : undefined),
      limit: data.limit,
      bytes: { of: shown === 'html' ? 'html' : 'body', max: RENDER_LIMITS.pageBytes },
    });
    const fit = await fitPage(scope, visiblePosts(page.items, moderator), shown);
    const last = fit.posts.at(-1);
    const next = fit.cut && last ? { key: last.position, id: last.id } : page.next;
    return {
      topic: topicView(this.config, community, topic, category),
      posts: await shownInTopic(
        this.store,
        actor,
        community,
        topic,
        fit.posts.map((p) => postView(this.config, community, topic, p)),
      ),
      nextCursor: next ? encodeCursor(`posts:${topic.id}`, next) : null,
      ...(await topicLinks(this.config, scope, community, topic)),
    };
  }

  async listTopics(
    actor: Actor,
    community: Community,
    input: ListTopicsInput = {},
  ): Promise<{ topics: TopicView[]; nextCursor: string | null }> {
    requireRead(actor, community);
    const data = parse(listTopicsSchema, input);
    const scope = this.scope(community);
    const category = data.category
      ? await findCategory(scope, community, data.category)
      : undefined;
    const listing = `topics:${data.sort}`;
    const plain = !data.tag && !data.filter;
    const pinned = await pinnedFirst(scope, category?.id, plain && !data.cursor);
    const page = await scope.topics.list({
      unpinned: plain,
      categoryId: category?.id,
      tag: data.tag,
      filter: data.filter as TopicFilter | undefined,
      sort: data.sort as TopicSort,
      after: decodeCursor(
        listing,
        data.cursor,
        data.sort === 'top' ? CURSOR_SHAPES.byCount : CURSOR_SHAPES.byTime,
      ),
      offset: !data.cursor && data.page ? (data.page - 1) * data.limit : undefined,
      limit: data.limit,
    });
    // The categories of this page only (at most one lookup each): counting every category's topics
    // here would cost a scan of the community's topics on every listing.
    const categories = new Map<string, Category>();
    const items = [...pinned, ...page.items];
    for (const id of new Set(items.map((t) => t.categoryId)))
      categories.set(id, (await scope.categories.getById(id))!);
    const shown = await shownTopics(this.store, actor, community, items);
    return {
      topics: shown.map((t) => topicView(this.config, community, t, categories.get(t.categoryId)!)),
      nextCursor: page.next ? encodeCursor(listing, page.next) : null,
    };
  }

  /** Accepts the answer, for a caller that has authorized the write and parsed its payload. */
  async writeSolution(
    actor: Actor,
    community: Community,
    data: z.output<typeof markSolutionSchema>,
    loaded: Loaded,
  ): Promise<TopicView> {
    return markSolution(this.context(), actor, community, data, loaded);
  }

  /** Writes the article, for a caller that has authorized the write and parsed its payload. */
  async writeArticle(
    actor: Actor,
    community: Community,
    data: z.output<typeof upsertArticleSchema>,
    loaded: Loaded,
  ): Promise<ArticleResult> {
    return upsertArticle(this.context(), actor, community, data, loaded);
  }

  async listArticleRevisions(actor: Actor, community: Community, input: { topic: string }) {
    return listArticleRevisions(this.context(), actor, community, input);
  }

  private context(): ContentContext {
    return { store: this.store, config: this.config, emit: (event) => this.emit(event) };
  }

  private emit(event: ContentEvent): void {
    this.events.emit(event);
  }
}

/**
 * A topic just created, as its first post left it (what the post's insert changed: one post, its
 * time as the last activity): no need to read it again.
 */
function withFirstPost(topic: Topic, post: { createdAt: string }): Topic {
  const later = (a: string, b: string) => (Date.parse(a) < Date.parse(b) ? b : a);
  return {
    ...topic,
    postCount: topic.postCount + 1,
    updatedAt: later(topic.updatedAt, post.createdAt),
    lastPostedAt: later(topic.lastPostedAt, post.createdAt),
  };
}
