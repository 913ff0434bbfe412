// Categories, topics, posts, solutions and knowledge-base articles of one community.
// Every method takes the acting Actor and the (already resolved) Community, validates its input,
// checks access (./authorization.ts), works through `store.community(community.id)` only, and
// returns views. Inputs are validated with the product's field schemas (./fields.ts).
import { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { CommunityScope, Store } from '../store/repositories.ts';
import type {
  AuthorRef,
  Category,
  Community,
  Post,
  Topic,
  TopicSort,
  TopicFilter,
} from '../store/types.ts';
import { isUuid } from '../store/ids.ts';
import type { Actor } from './actor.ts';
import {
  authorOf,
  requireCanEditPost,
  requireCanMarkSolution,
  requireCommunityAdmin,
  requireRead,
  requireSystemFor,
  requireWrite,
} from './authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from './cursor.ts';
import { DomainError } from './errors.ts';
import { ContentEvents, type ContentEvent } from './events.ts';
import {
  categoryRef,
  cursor,
  pageLimit,
  pathSlug,
  questionBody,
  recordId,
  replyBody,
  tag,
  tags,
  title,
  topicRef,
} from './fields.ts';
import { firstFreeSlug, slugify } from './slug.ts';
import { recordWebhookEvent } from './webhooks/outbox.ts';
import { parse, translateStoreError } from './validate.ts';
import type { WriteKind } from './vocabulary.ts';
import {
  authorView,
  categoryView,
  postView,
  topicView,
  type CategoryView,
  type PostView,
  type TopicView,
} from './views.ts';

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
  }),
  'post.create': z.object({ topic: topicRef, body: replyBody }),
  'solution.mark': z.object({ topic: topicRef, post: recordId }),
  'article.write': z.object({
    category: categoryRef,
    slug: pathSlug.optional(),
    title,
    body: questionBody,
    tags: tags.optional(),
  }),
} satisfies Record<WriteKind, z.ZodObject>;

const createCategorySchema = z.object({
  slug: pathSlug.optional(),
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(2000).default(''),
  kind: z.enum(['discussion', 'knowledge_base']).default('discussion'),
  position: z.number().int().min(0).max(10_000).optional(),
});

const createTopicSchema = WRITE_INPUTS['topic.create'].extend(systemOnly);
const replySchema = WRITE_INPUTS['post.create'].extend(systemOnly);
const markSolutionSchema = WRITE_INPUTS['solution.mark'];
const upsertArticleSchema = WRITE_INPUTS['article.write'].extend(systemOnly);

const editPostSchema = z.object({ post: recordId, body: replyBody, title: title.optional() });

const getTopicSchema = z.object({
  topic: topicRef,
  cursor: cursor.nullish(),
  limit: pageLimit(100, 50),
});

export const TOPIC_FILTERS = ['unanswered', 'solved'] as const;
export const TOPIC_SORTS = ['latest', 'top', 'created'] as const;
const listTopicsSchema = z.object({
  category: categoryRef.optional(),
  tag: tag.optional(),
  filter: z.enum(TOPIC_FILTERS).optional(),
  sort: z.enum(TOPIC_SORTS).default('latest'),
  cursor: cursor.nullish(),
  limit: pageLimit(100, 20),
});

export type CreateTopicInput = z.input<typeof createTopicSchema>;
export type ReplyInput = z.input<typeof replySchema>;
export type ListTopicsInput = z.input<typeof listTopicsSchema>;
export type UpsertArticleInput = z.input<typeof upsertArticleSchema>;

export type TopicWithPosts = { topic: TopicView; posts: PostView[]; nextCursor: string | null };
export type ArticleResult = {
  topic: TopicView;
  post: PostView;
  revision: number;
  created: boolean;
};

export class ContentService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    readonly events: ContentEvents = new ContentEvents(),
  ) {}

  /**
   * The same service bound to a transaction the caller opened (the importer commits a whole thread
   * at once). Its events fire when each call returns, i.e. before the caller's commit.
   */
  withStore(tx: Store): ContentService {
    return new ContentService(tx, this.config, this.events);
  }

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

  async createCategory(
    actor: Actor,
    community: Community,
    input: z.input<typeof createCategorySchema>,
  ): Promise<CategoryView> {
    await requireCommunityAdmin(this.store, actor, community, 'create categories');
    const data = parse(createCategorySchema, input);
    const slug = data.slug ?? slugify(data.name, 'category');
    try {
      return categoryView(await this.scope(community).categories.create({ ...data, slug }));
    } catch (err) {
      translateStoreError(
        err,
        `A category with slug "${slug}" already exists in "${community.slug}". Choose another slug.`,
        '',
      );
    }
  }

  async createTopic(
    actor: Actor,
    community: Community,
    input: CreateTopicInput,
  ): Promise<{ topic: TopicView; post: PostView }> {
    requireWrite(actor, community);
    const data = parse(createTopicSchema, input);
    const author = this.authorFor(actor, data);
    const result = await this.store.transaction(async (tx) => {
      const scope = this.scope(community, tx);
      const category = await this.findCategory(scope, community, data.category);
      if (category.kind === 'knowledge_base') {
        throw new DomainError(
          'invalid_argument',
          `"${category.slug}" is a knowledge base, which holds articles rather than topics: write an article there (it needs the "article:write" scope), or pick a discussion category.`,
        );
      }
      const topic = await this.insertTopic(scope, community, {
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
        createdAt: data.createdAt,
      });
      const fresh = (await scope.topics.getById(topic.id))!;
      const views = {
        topic: topicView(this.config, community, fresh, category),
        post: postView(this.config, community, fresh, post),
      };
      await recordWebhookEvent(tx, community.id, 'topic.created', () => views);
      return views;
    });
    this.emit({
      type: 'topic.created',
      communityId: community.id,
      topicId: result.topic.id,
      postId: result.post.id,
    });
    return result;
  }

  async reply(actor: Actor, community: Community, input: ReplyInput): Promise<PostView> {
    requireWrite(actor, community);
    const data = parse(replySchema, input);
    const author = this.authorFor(actor, data);
    const { topic, post } = await this.store.transaction(async (tx) => {
      const scope = this.scope(community, tx);
      const topic = await this.findTopic(scope, data.topic);
      const category = (await scope.categories.getById(topic.categoryId))!;
      if (category.kind === 'knowledge_base') {
        throw new DomainError(
          'conflict',
          `"${topic.title}" is a knowledge-base article with one maintained body: revise the article (write it again under the same title) instead of replying.`,
        );
      }
      if (topic.status === 'closed') {
        throw new DomainError(
          'conflict',
          `The topic "${topic.title}" is closed and takes no new replies. Start a new topic instead.`,
        );
      }
      const post = await scope.posts.create({
        topicId: topic.id,
        author,
        body: data.body,
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

  async getTopic(
    actor: Actor,
    community: Community,
    input: z.input<typeof getTopicSchema>,
  ): Promise<TopicWithPosts> {
    requireRead(actor, community);
    const data = parse(getTopicSchema, input);
    const scope = this.scope(community);
    const topic = await this.findTopic(scope, data.topic);
    const category = (await scope.categories.getById(topic.categoryId))!;
    const page = await scope.posts.listByTopic(topic.id, {
      after: decodeCursor(`posts:${topic.id}`, data.cursor, CURSOR_SHAPES.byCount),
      limit: data.limit,
    });
    return {
      topic: topicView(this.config, community, topic, category),
      posts: page.items.map((p) => postView(this.config, community, topic, p)),
      nextCursor: page.next ? encodeCursor(`posts:${topic.id}`, page.next) : null,
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
      ? await this.findCategory(scope, community, data.category)
      : undefined;
    const listing = `topics:${data.sort}`;
    const page = await scope.topics.list({
      categoryId: category?.id,
      tag: data.tag,
      filter: data.filter as TopicFilter | undefined,
      sort: data.sort as TopicSort,
      after: decodeCursor(
        listing,
        data.cursor,
        data.sort === 'top' ? CURSOR_SHAPES.byCount : CURSOR_SHAPES.byTime,
      ),
      limit: data.limit,
    });
    // The categories of this page only (at most one lookup each): counting every category's topics
    // here would cost a scan of the community's topics on every listing.
    const categories = new Map<string, Category>();
    for (const id of new Set(page.items.map((t) => t.categoryId)))
      categories.set(id, (await scope.categories.getById(id))!);
    return {
      topics: page.items.map((t) =>
        topicView(this.config, community, t, categories.get(t.categoryId)!),
      ),
      nextCursor: page.next ? encodeCursor(listing, page.next) : null,
    };
  }

  async markSolution(
    actor: Actor,
    community: Community,
    input: z.input<typeof markSolutionSchema>,
  ): Promise<TopicView> {
    requireWrite(actor, community);
    const data = parse(markSolutionSchema, input);
    const { topic, category, postId } = await this.store.transaction(async (tx) => {
      const scope = this.scope(community, tx);
      const topic = await this.findTopic(scope, data.topic);
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
      const category = (await scope.categories.getById(topic.categoryId))!;
      await recordWebhookEvent(tx, community.id, 'solution.marked', () => ({
        topic: topicView(this.config, community, updated, category),
        post: postView(this.config, community, updated, post),
      }));
      return { topic: updated, category, postId: post.id };
    });
    this.emit({ type: 'solution.marked', communityId: community.id, topicId: topic.id, postId });
    return topicView(this.config, community, topic, category);
  }

  /** Withdraws the accepted answer (same people as accepting one); the topic is unsolved again. */
  async clearSolution(
    actor: Actor,
    community: Community,
    input: { topic: string },
  ): Promise<TopicView> {
    requireWrite(actor, community);
    const data = parse(z.object({ topic: topicRef }), input);
    const { topic, category } = await this.store.transaction(async (tx) => {
      const scope = this.scope(community, tx);
      const found = await this.findTopic(scope, data.topic);
      await requireCanMarkSolution(tx, actor, community, found);
      const topic = found.solutionPostId
        ? (await scope.topics.update(found.id, { solutionPostId: null }))!
        : found;
      return { topic, category: (await scope.categories.getById(found.categoryId))! };
    });
    return topicView(this.config, community, topic, category);
  }

  /**
   * Replaces a post's body (and, for the question, the topic's title): its author within the edit
   * window, or a moderator (./authorization.ts). A question keeps the question's length limits;
   * articles are revised instead (every revision kept).
   */
  async editPost(
    actor: Actor,
    community: Community,
    input: { post: string; body: string; title?: string },
    now = new Date(),
  ): Promise<{ topic: TopicView; post: PostView }> {
    requireWrite(actor, community);
    const data = parse(editPostSchema, input);
    const result = await this.store.transaction(async (tx) => {
      const scope = this.scope(community, tx);
      const post = await scope.posts.getById(data.post);
      if (!post)
        throw new DomainError('not_found', `No post "${data.post}" in "${community.slug}".`);
      const topic = (await scope.topics.getById(post.topicId))!;
      const category = (await scope.categories.getById(topic.categoryId))!;
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
      const edited = (await scope.posts.updateBody(post.id, data.body))!;
      const updated =
        data.title !== undefined && data.title !== topic.title
          ? (await scope.topics.update(topic.id, { title: data.title }))!
          : topic;
      return { topic: updated, category, post: edited };
    });
    return {
      topic: topicView(this.config, community, result.topic, result.category),
      post: postView(this.config, community, result.topic, result.post),
    };
  }

  /**
   * Creates the article (a topic in a knowledge_base category whose first post is the body) or,
   * when the slug exists, replaces its title/body. Every call keeps a revision.
   */
  async upsertArticle(
    actor: Actor,
    community: Community,
    input: UpsertArticleInput,
  ): Promise<ArticleResult> {
    requireWrite(actor, community);
    const data = parse(upsertArticleSchema, input);
    const author = this.authorFor(actor, data);
    const result = await this.store.transaction(async (tx) => {
      const scope = this.scope(community, tx);
      const category = await this.findCategory(scope, community, data.category);
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
        const post = (await scope.posts.updateBody(first.id, data.body, data.createdAt))!;
        await scope.topics.update(existing.id, { title: data.title });
        if (data.tags) await scope.topics.setTags(existing.id, data.tags);
        const revision = await scope.articles.add({
          topicId: existing.id,
          title: data.title,
          body: data.body,
          author,
          createdAt: data.createdAt,
        });
        return this.articleWritten(tx, community, {
          topic: (await scope.topics.getById(existing.id))!,
          post,
          category,
          revision: revision.revision,
          created: false,
        });
      }
      const topic = await this.insertTopic(scope, community, {
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
        createdAt: data.createdAt,
      });
      const revision = await scope.articles.add({
        topicId: topic.id,
        title: data.title,
        body: data.body,
        author,
        createdAt: data.createdAt,
      });
      return this.articleWritten(tx, community, {
        topic: (await scope.topics.getById(topic.id))!,
        post,
        category,
        revision: revision.revision,
        created: true,
      });
    });
    this.emit({
      type: 'article.updated',
      communityId: community.id,
      topicId: result.topic.id,
      postId: result.post.id,
      revision: result.revision,
    });
    return result;
  }

  /** An article's views, and its article.updated event in the outbox of the write's transaction. */
  private async articleWritten(
    tx: Store,
    community: Community,
    w: { topic: Topic; post: Post; category: Category; revision: number; created: boolean },
  ): Promise<ArticleResult> {
    const result = {
      topic: topicView(this.config, community, w.topic, w.category),
      post: postView(this.config, community, w.topic, w.post),
      revision: w.revision,
      created: w.created,
    };
    await recordWebhookEvent(tx, community.id, 'article.updated', () => result);
    return result;
  }

  async listArticleRevisions(actor: Actor, community: Community, input: { topic: string }) {
    requireRead(actor, community);
    const data = parse(z.object({ topic: topicRef }), input);
    const scope = this.scope(community);
    const topic = await this.findTopic(scope, data.topic);
    return (await scope.articles.list(topic.id)).map((r) => ({
      revision: r.revision,
      title: r.title,
      body: r.body,
      author: authorView(r.author, community),
      createdAt: r.createdAt,
    }));
  }

  async setTopicStatus(
    actor: Actor,
    community: Community,
    input: { topic: string; status: 'open' | 'closed' },
  ): Promise<TopicView> {
    await requireCommunityAdmin(this.store, actor, community, 'open or close topics');
    const data = parse(z.object({ topic: topicRef, status: z.enum(['open', 'closed']) }), input);
    const scope = this.scope(community);
    const topic = await this.findTopic(scope, data.topic);
    const updated = (await scope.topics.update(topic.id, { status: data.status }))!;
    return topicView(
      this.config,
      community,
      updated,
      (await scope.categories.getById(updated.categoryId))!,
    );
  }

  // — helpers —

  private emit(event: ContentEvent): void {
    this.events.emit(event);
  }

  private authorFor(
    actor: Actor,
    data: { author?: { personId: string; displayName: string }; createdAt?: string },
  ): AuthorRef {
    if (data.createdAt !== undefined) requireSystemFor(actor, 'original dates (createdAt)');
    if (data.author) {
      requireSystemFor(actor, 'the author');
      return { kind: 'person', id: data.author.personId, name: data.author.displayName };
    }
    return authorOf(actor);
  }

  private async findCategory(
    scope: CommunityScope,
    community: Community,
    reference: string,
  ): Promise<Category> {
    const category = isUuid(reference)
      ? await scope.categories.getById(reference)
      : await scope.categories.getBySlug(reference.toLowerCase());
    if (!category) {
      throw new DomainError(
        'not_found',
        `No category "${reference}" in "${community.slug}". Call list_categories for the valid slugs.`,
      );
    }
    return category;
  }

  private async findTopic(scope: CommunityScope, reference: string): Promise<Topic> {
    const topic = isUuid(reference)
      ? await scope.topics.getById(reference)
      : await scope.topics.getBySlug(reference.toLowerCase());
    if (!topic) {
      throw new DomainError(
        'not_found',
        `No topic "${reference}" in this community. Use a topic id or slug from list_topics or search.`,
      );
    }
    return topic;
  }

  /** Creates a topic under a free slug (`title`, `title-2`, …); an explicit slug must be free. */
  private async insertTopic(
    scope: CommunityScope,
    community: Community,
    input: {
      categoryId: string;
      slug?: string;
      title: string;
      author: AuthorRef;
      tags: string[];
      createdAt?: string;
    },
  ): Promise<Topic> {
    const slug =
      input.slug ??
      firstFreeSlug(slugify(input.title), await scope.topics.slugsLike(slugify(input.title)));
    try {
      return await scope.topics.create({ ...input, slug });
    } catch (err) {
      translateStoreError(
        err,
        `The topic slug "${slug}" was just taken in "${community.slug}". Retry the request.`,
        `The category no longer exists in "${community.slug}". Call list_categories and retry.`,
      );
    }
  }
}
