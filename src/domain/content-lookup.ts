// The content service's lookups and shared steps (and the context its parts share): the one
// lookup of a category or topic by id or slug (not_found naming where to find valid ones; the
// write use cases load through it too), a new topic under a free slug, and who a write is by (the
// system actor alone may name an imported author or an original date).
import type { Config } from '../config/config.ts';
import type { CommunityScope, Store } from '../store/repositories.ts';
import type { AuthorRef, Category, Community, Topic } from '../store/types.ts';
import { isUuid } from '../store/ids.ts';
import type { Actor } from './actor.ts';
import { authorOf, requireSystemFor } from './authorization.ts';
import { DomainError } from './errors.ts';
import type { ContentEvent } from './events.ts';
import { firstFreeSlug, slugify } from './slug.ts';
import { translateStoreError } from './validate.ts';
import type { Mention } from './notifications/mentions.ts';
import type { Upload } from '../store/uploads.ts';

/**
 * What a write read once before it applies (./writes/use-case.ts): reused, never read again.
 * `uploads`: the community's uploads the body links to (its images are shown with their size).
 */
export type Loaded = {
  category?: Category;
  topic?: Topic;
  mentions?: Mention[];
  uploads?: Upload[];
};

/** What the content service's parts work with: its store, the config, and its event bus. */
export type ContentContext = { store: Store; config: Config; emit(event: ContentEvent): void };

export function authorFor(
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

/** What can be looked up by id or by slug (a community's categories and topics). */
type BySlug<T> = {
  getById(id: string): Promise<T | undefined>;
  getBySlug(slug: string): Promise<T | undefined>;
};

/** The one id-or-slug lookup: a UUID is an id, anything else a slug (case-insensitive). */
async function byIdOrSlug<T>(rows: BySlug<T>, reference: string): Promise<T | undefined> {
  return isUuid(reference) ? rows.getById(reference) : rows.getBySlug(reference.toLowerCase());
}

export async function findCategory(
  scope: CommunityScope,
  community: Community,
  reference: string,
): Promise<Category> {
  const category = await byIdOrSlug(scope.categories, reference);
  if (!category) {
    throw new DomainError(
      'not_found',
      `No category "${reference}" in "${community.slug}". Call list_categories for the valid slugs.`,
    );
  }
  return category;
}

export async function findTopic(scope: CommunityScope, reference: string): Promise<Topic> {
  const topic = await byIdOrSlug(scope.topics, reference);
  if (!topic) {
    throw new DomainError(
      'not_found',
      `No topic "${reference}" in this community. Use a topic id or slug from list_topics or search.`,
    );
  }
  return topic;
}

/**
 * A topic's category: the one read in the same statement when the topic was read alone (by id or
 * slug), else read now.
 */
export async function categoryOf(scope: CommunityScope, topic: Topic): Promise<Category> {
  if (topic.category?.id === topic.categoryId) return topic.category;
  const category = await scope.categories.getById(topic.categoryId);
  if (!category) throw new Error(`topic ${topic.id} has no category ${topic.categoryId}`);
  return category;
}

/** Creates a topic under a free slug (`title`, `title-2`, …); an explicit slug must be free. */
export async function insertTopic(
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

/**
 * The rows of a write on the store the runner hands them: its transaction (rows never open one of
 * their own; ./writes/runner.ts does, around every write).
 */
export async function rowsOn<T>(store: Store, rows: (tx: Store) => Promise<T>): Promise<T> {
  return rows(store);
}
