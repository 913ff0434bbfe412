// Records as the store hands them to the domain: plain objects, ids as UUID strings, timestamps as
// ISO-8601 strings in UTC (each adapter normalizes what its driver returns, see ./time.ts).

export type Visibility = 'public' | 'private';
export type CategoryKind = 'discussion' | 'knowledge_base';
export type TopicStatus = 'open' | 'closed';
export type AuthorKind = 'person' | 'agent' | 'system';

/** Who wrote something, as stored on topics, posts and revisions (denormalized display name). */
/** Who wrote something; `via` names the connected app a person wrote through ("via Claude"). */
export type AuthorRef = { kind: AuthorKind; id: string | null; name: string; via?: string };

export type Community = {
  id: string;
  slug: string;
  name: string;
  description: string;
  guidelines: string;
  visibility: Visibility;
  customDomain: string | null;
  createdAt: string;
  updatedAt: string;
};

/** One entry of a listing read in files by ordinal (a sitemap): its slug and when it last changed. */
export type ListedEntry = { slug: string; updatedAt: string };
/** A public community as a listing file (a sitemap) gives it: where it is served, its last change. */
export type ListedCommunity = ListedEntry & { customDomain: string | null };

/** A public community and how many of the words asked for it holds (CommunityDirectory.matchPublic). */
export type CommunityMatch = { community: Community; matched: number };

export type Person = {
  id: string;
  displayName: string;
  email: string | null;
  /** The unique @handle mentions use (null only on rows written around migration 0080). */
  handle: string | null;
  createdAt: string;
};

export type Agent = { id: string; communityId: string; name: string; createdAt: string };

export type Category = {
  id: string;
  communityId: string;
  slug: string;
  name: string;
  description: string;
  position: number;
  kind: CategoryKind;
  /** null: the community's approval policy applies; else it decides for new topics in it. */
  approvalPolicy: CategoryApproval;
  createdAt: string;
};

/** A category's approval policy for new topics and articles in it (null: the community's). */
export type CategoryApproval = 'auto' | 'approval' | null;

export type CategoryWithCount = Category & { topicCount: number };

export type Topic = {
  id: string;
  communityId: string;
  categoryId: string;
  slug: string;
  title: string;
  author: AuthorRef;
  status: TopicStatus;
  tags: string[];
  solutionPostId: string | null;
  /** Number of posts including the first one (the question). */
  postCount: number;
  createdAt: string;
  updatedAt: string;
  lastPostedAt: string;
  /** What moderators did to it beyond closing it (./moderation.ts). */
  moderation: TopicModeration;
  /**
   * Its category, read in the same statement when the topic is read alone (by id or slug);
   * undefined from listings and writes.
   */
  category?: Category;
};

/** A moderator's soft delete: when, by whom (their display name) and why. */
export type Deletion = { at: string; by: string; reason: string };

export type TopicModeration = {
  /** Locked: no replies and no edits. */
  lockedAt: string | null;
  /** Pinned: listed first. */
  pinnedAt: string | null;
  deleted: Deletion | null;
  /** Closed as a duplicate of this topic. */
  duplicateOf: string | null;
  /** Its posts were merged into this topic. */
  mergedInto: string | null;
  /**
   * Whether any of its posts is hidden, and whether open topics are closed as duplicates of it: read
   * with a topic read alone (by id or slug), so its page skips those queries when the answer is no;
   * undefined from listings.
   */
  hasHidden?: boolean;
  hasDuplicates?: boolean;
};

/**
 * A body's rendered and sanitized HTML, with the version of the renderer that made it. The domain
 * renders (src/domain/rendering.ts); the store keeps what it is given.
 */
export type Rendered = { html: string; version: number };

export type Post = {
  id: string;
  communityId: string;
  topicId: string;
  /** 1 for the first post (the question / the article body), then 2, 3, … in order of creation. */
  position: number;
  author: AuthorRef;
  /** Markdown source. */
  body: string;
  /** The body rendered when it was written (or last read); null: not rendered yet. */
  rendered: Rendered | null;
  createdAt: string;
  editedAt: string | null;
  /** Soft-deleted by a moderator; null: shown. */
  deleted: Deletion | null;
};

export type ArticleRevision = {
  id: string;
  communityId: string;
  topicId: string;
  revision: number;
  title: string;
  body: string;
  /** The body rendered when it was written (or last read); null: not rendered yet. */
  rendered: Rendered | null;
  author: AuthorRef;
  createdAt: string;
};

/** A page of a keyset-paginated list; `next` is the position to continue after, if any. */
export type Page<T, K> = { items: T[]; next: K | null };

/** Keyset position: the sort key of the last item seen and its id (the tie-breaker). */
export type Keyset = { key: string | number; id: string };

export type TopicSort = 'latest' | 'top' | 'created';
export type TopicFilter = 'unanswered' | 'solved';

export type TopicQuery = {
  categoryId?: string;
  tag?: string;
  filter?: TopicFilter;
  sort: TopicSort;
  after?: Keyset;
  /** Skip this many (a numbered page); with `after`, counted after it. */
  offset?: number;
  limit: number;
  /** Leave out pinned topics (a first page lists them above the rest). */
  unpinned?: boolean;
};

export type NewCommunity = {
  slug: string;
  name: string;
  description?: string;
  guidelines?: string;
  visibility: Visibility;
  customDomain?: string | null;
};

export type CommunityPatch = Partial<
  Pick<Community, 'name' | 'description' | 'guidelines' | 'visibility' | 'customDomain'>
>;

export type NewCategory = {
  slug: string;
  name: string;
  description?: string;
  position?: number;
  kind: CategoryKind;
  approvalPolicy?: CategoryApproval;
};

export type CategoryPatch = Partial<
  Pick<Category, 'slug' | 'name' | 'description' | 'kind' | 'approvalPolicy'>
>;

export type NewTopic = {
  categoryId: string;
  slug: string;
  title: string;
  author: AuthorRef;
  tags?: string[];
  /** Original date for imported content; defaults to now. */
  createdAt?: string;
};

export type NewPost = {
  topicId: string;
  author: AuthorRef;
  body: string;
  /** The body, rendered; absent: rendered when first read. */
  rendered?: Rendered;
  createdAt?: string;
};

export type TopicPatch = Partial<{
  title: string;
  status: TopicStatus;
  solutionPostId: string | null;
  categoryId: string;
}>;

export type NewRevision = {
  topicId: string;
  title: string;
  body: string;
  /** The body, rendered; absent: rendered when first read. */
  rendered?: Rendered;
  author: AuthorRef;
  createdAt?: string;
};

/** One imported message: which topic/post it became. Keyed by Message-ID (or a content hash). */
export type ImportedMessage = {
  messageKey: string;
  topicId: string;
  postId: string;
  createdAt: string;
};
