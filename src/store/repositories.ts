// The storage contract the domain sees. Two adapters (SQLite, PostgreSQL) implement it through one
// Kysely implementation; test/store/contract.ts holds the behaviour both must show.
//
// Tenancy by construction: everything that belongs to a community is reached only through
// `store.community(communityId)`, whose every query carries `community_id = <that id>`. There is no
// method that takes a topic/post/category id alone, so an id from community B looked up through
// community A's scope is simply "not found".
import type { ModeratorActionsRepository } from './moderator-actions.ts';
import type { SchemaState } from './schema-version.ts';
import type { RetentionRepository } from './retention.ts';
import type {
  Agent,
  ArticleRevision,
  Category,
  CategoryPatch,
  CategoryWithCount,
  Community,
  CommunityMatch,
  CommunityPatch,
  ImportedMessage,
  Keyset,
  ListedCommunity,
  ListedEntry,
  NewCategory,
  NewCommunity,
  NewPost,
  NewRevision,
  NewTopic,
  Page,
  Person,
  Post,
  Rendered,
  Topic,
  TopicPatch,
  TopicQuery,
} from './types.ts';
import type { CommunityAccessRepositories, IdentityRepositories } from './identity.ts';
import type { SessionStore } from '../mcp/session-store.ts';
import type { CommunityMcpConfigRepository } from './community-mcp.ts';
import type { WebhookQueue, WebhookRepository } from './webhooks.ts';
import type { OAuthRepository } from './oauth.ts';
import type { NotificationMailQueue, NotificationRepository } from './notifications.ts';
import type { DraftRepository } from './drafts.ts';
import type { MemberProfileRepository } from './member-profiles.ts';
import type { BookmarkRepository } from './bookmarks.ts';
import type { TopicReadRepository, TopicViewCounts } from './topic-reads.ts';
import type { PostRevisionRepository } from './post-revisions.ts';
import type { UploadRepository } from './uploads.ts';
import type { AccountTokens, MailOutbox } from './mail.ts';
import type { PostSignals, VoteRepository } from './votes.ts';
import type { KnowledgeRepository } from './knowledge.ts';
import type { ReputationRepository } from './reputation.ts';
import type { HiddenPost, ModerationRepository } from './moderation.ts';

export type Dialect = 'sqlite' | 'postgres';
export { MissingRow, UniqueViolation } from './errors.ts';

export interface CommunityDirectory {
  create(input: NewCommunity): Promise<Community>;
  getById(id: string): Promise<Community | undefined>;
  /** The communities of these ids that exist, in no particular order (one statement). */
  getByIds(ids: string[]): Promise<Community[]>;
  getBySlug(slug: string): Promise<Community | undefined>;
  /** The communities of these slugs that exist, in no particular order (one statement). */
  getBySlugs(slugs: string[]): Promise<Community[]>;
  getByDomain(domain: string): Promise<Community | undefined>;
  update(id: string, patch: CommunityPatch): Promise<Community | undefined>;
  /** Public communities ordered by slug. */
  listPublic(page: { after?: Keyset; limit: number }): Promise<Page<Community, Keyset>>;
  /** Every community (CLI / admin use), ordered by slug. */
  listAll(): Promise<Community[]>;
  /**
   * At most `limit` public communities whose slug, name or description hold any of `words` (each
   * one lower-case word; stemmed by the engine), best first: the most words matched, then the
   * engine's weight, then the slug. Reads only the communities that match.
   */
  matchPublic(words: string[], limit: number): Promise<CommunityMatch[]>;
  /** The last ordinal given to a community (migration 0112; 0 when none): how far files go. */
  lastOrdinal(): Promise<number>;
  /** The public communities whose ordinal is in (after, through], in ordinal order. */
  publicByOrdinal(after: number, through: number): Promise<ListedCommunity[]>;
}

/** People are not community-scoped: one person can later be a member of many communities. */
export interface PeopleRepository {
  create(input: {
    displayName: string;
    email?: string | null;
    /** The @handle (../store/handles.ts); without one, a free one is made from the display name. */
    handle?: string;
    createdAt?: string;
  }): Promise<Person>;
  getById(id: string): Promise<Person | undefined>;
  getByEmail(email: string): Promise<Person | undefined>;
  /** The person with this handle (any case). */
  getByHandle(handle: string): Promise<Person | undefined>;
  /** Changes the person's handle; UniqueViolation when another person has it. */
  setHandle(id: string, handle: string): Promise<void>;
  /** Changes the person's name (shown beside what they write from now on, and on their profile). */
  setDisplayName(id: string, displayName: string): Promise<void>;
}

export interface CategoryRepository {
  create(input: NewCategory): Promise<Category>;
  getById(id: string): Promise<Category | undefined>;
  getBySlug(slug: string): Promise<Category | undefined>;
  /** Ordered by position then name, each with its number of topics. */
  listWithCounts(): Promise<CategoryWithCount[]>;
  /** Changes the given fields; undefined when no such category. Slugs stay unique (UniqueViolation). */
  update(id: string, patch: CategoryPatch): Promise<Category | undefined>;
  /** Positions 1, 2, 3, … in the order of `ids` (the community's categories, each once). */
  setOrder(ids: string[]): Promise<void>;
  /** How many topics (and articles) the category holds. */
  topicCount(id: string): Promise<number>;
  /** Moves every topic of category `from` into `to`; returns how many moved. */
  moveTopics(from: string, to: string): Promise<number>;
  /** Deletes an empty category; false when there was none. */
  delete(id: string): Promise<boolean>;
}

/** What a search answer names of a topic: where it is, its title, its accepted answer. */
export type TopicHeader = {
  id: string;
  slug: string;
  title: string;
  solutionPostId: string | null;
};

export interface TopicRepository {
  /** Creates the topic only (postCount 0); add the first post with posts.create. */
  create(input: NewTopic): Promise<Topic>;
  getById(id: string): Promise<Topic | undefined>;
  getBySlug(slug: string): Promise<Topic | undefined>;
  /** The slug, title and accepted answer of each of these topics that exists (one statement). */
  headers(ids: string[]): Promise<Map<string, TopicHeader>>;
  /** True if no topic of this community uses the slug. */
  slugAvailable(slug: string): Promise<boolean>;
  /** Slugs of this community equal to `base` or of the form `base-<n>` (to pick a free one). */
  slugsLike(base: string): Promise<string[]>;
  list(query: TopicQuery): Promise<Page<Topic, Keyset>>;
  update(id: string, patch: TopicPatch): Promise<Topic | undefined>;
  setTags(id: string, tags: string[]): Promise<void>;
  /** Distinct tags in use, most used first (for completion). */
  listTags(limit: number): Promise<{ tag: string; count: number }[]>;
  /** The last ordinal given to a topic of this community (migration 0112; 0 when none). */
  lastOrdinal(): Promise<number>;
  /** The listed topics (neither deleted nor merged) whose ordinal is in (after, through]. */
  listedByOrdinal(after: number, through: number): Promise<Array<ListedEntry & { id: string }>>;
}

/**
 * A byte budget for a page of posts: at most `max` bytes of their stored HTML (`html`; a post not
 * rendered yet counts its body) or of their Markdown (`body`).
 */
export type PageBytes = { of: 'html' | 'body'; max: number };

export interface PostRepository {
  /** Appends a post: position = topic's post count + 1, bumps the topic's counters atomically. */
  create(input: NewPost): Promise<Post>;
  getById(id: string): Promise<Post | undefined>;
  /** Those of these posts that exist, by id (one statement). */
  getByIds(ids: string[]): Promise<Map<string, Post>>;
  /** The first post (question / article body) of each of these topics, by topic id (one statement). */
  firstOf(topicIds: string[]): Promise<Map<string, Post>>;
  /**
   * Posts of a topic by position: `limit` of them, or with `bytes` only as many leading ones as fit
   * in its budget (one at least; sizes read first, so posts past the budget are never loaded).
   */
  listByTopic(
    topicId: string,
    page: { after?: Keyset; limit: number; bytes?: PageBytes },
  ): Promise<Page<Post, Keyset>>;
  /** The post at position 1 (question / article body). */
  getFirst(topicId: string): Promise<Post | undefined>;
  /** Replaces the body (and its render: `rendered`, or none until the post is next read). */
  updateBody(
    id: string,
    body: string,
    editedAt?: string,
    rendered?: Rendered,
  ): Promise<Post | undefined>;
  /**
   * Stores a render of `body` made on read, over an older render only: nothing changes (false)
   * when the post's body is no longer `body` (an edit since wins), when its stored render is of
   * this version or newer (another instance, or a newer renderer, got there first), or when there
   * is no such post.
   */
  saveRendered(id: string, body: string, rendered: Rendered): Promise<boolean>;
  /** Posts by one author (a person or an agent) in this community, newest first. */
  listByAuthor(
    author: { kind: 'person' | 'agent'; id: string },
    page: { after?: Keyset; limit: number },
  ): Promise<Page<Post, Keyset>>;
}

export interface ArticleRevisionRepository {
  /** Appends the next revision number for the topic. */
  add(input: NewRevision): Promise<ArticleRevision>;
  list(topicId: string): Promise<ArticleRevision[]>;
  /** Stores a render of the revision's body made on read, over an older render only (as posts). */
  saveRendered(id: string, rendered: Rendered): Promise<boolean>;
}

export interface AgentRepository {
  create(input: { name: string }): Promise<Agent>;
  getById(id: string): Promise<Agent | undefined>;
  getByName(name: string): Promise<Agent | undefined>;
  /** Every agent of the community, by name. */
  list(): Promise<Agent[]>;
}

/** Book-keeping of the mail importer: makes re-runs and resumed runs idempotent. */
export interface ImportRepository {
  findMessage(messageKey: string): Promise<ImportedMessage | undefined>;
  /** Keys among `keys` that were already imported. */
  findMessages(keys: string[]): Promise<ImportedMessage[]>;
  recordMessage(input: { messageKey: string; topicId: string; postId: string }): Promise<void>;
  countMessages(): Promise<number>;
  /** Imported author identities are keyed by a hash (never the address itself). */
  findPerson(identityHash: string): Promise<string | undefined>;
  recordPerson(identityHash: string, personId: string): Promise<void>;
}

export interface CommunityScope {
  readonly communityId: string;
  readonly categories: CategoryRepository;
  readonly topics: TopicRepository;
  readonly posts: PostRepository;
  readonly articles: ArticleRevisionRepository;
  /** The versions of edited posts (./post-revisions.ts). */
  readonly postRevisions: PostRevisionRepository;
  readonly agents: AgentRepository;
  readonly imports: ImportRepository;
  /** Memberships, agent scopes and keys, approval policies and queue, idempotency records. */
  readonly access: CommunityAccessRepositories;
  /** Webhook endpoints, the outbox and the delivery log (./webhooks.ts). */
  readonly webhooks: WebhookRepository;
  /** People's notifications, watch levels and e-mail preferences here (./notifications.ts). */
  readonly notifications: NotificationRepository;
  /** Votes, "this worked" reports and each post's signals, the vote settings (./votes.ts). */
  readonly votes: VoteRepository;
  /** Environments, cited sources and agent owners (./knowledge.ts). */
  readonly knowledge: KnowledgeRepository;
  /** Each author's reputation here, from the verified outcomes of their answers (./reputation.ts). */
  readonly reputation: ReputationRepository;
  /** Flags, hidden posts, sanctions and moderation settings (./moderation.ts). */
  readonly moderation: ModerationRepository;
  /** People's unsent replies and topics, per place (./drafts.ts). */
  readonly drafts: DraftRepository;
  /** People's bookmarks of topics and posts, each person's own (./bookmarks.ts). */
  readonly bookmarks: BookmarkRepository;
  /** What people show of themselves here: a bio and a picture (./member-profiles.ts). */
  readonly memberProfiles: MemberProfileRepository;
  /** How far each person read each topic, their visits, and topics' activity (./topic-reads.ts). */
  readonly topicReads: TopicReadRepository;
  /** Files attached to posts: their records and the community's quota sum (./uploads.ts). */
  readonly uploads: UploadRepository;
  /** Moderators' topic state, post soft deletes, merges and the moderation log (./moderation.ts). */
  readonly moderatorActions: ModeratorActionsRepository;
}

/**
 * Reads over the threads of every public community at once (the network's pages hold topics of
 * many communities): a private community's rows are never read, whatever ids are passed.
 */
export interface PublicThreads {
  /** Votes and reports summed per topic, for the public ones among these threads. */
  signals(threads: readonly Thread[]): Promise<Map<string, PostSignals>>;
  /** The hidden posts of the public ones among these threads. */
  hidden(threads: readonly Thread[]): Promise<HiddenPost[]>;
}

/** A topic and its community (what the indexes of thread rows are keyed by). */
export type Thread = { communityId: string; topicId: string };

export interface Store {
  readonly dialect: Dialect;
  readonly communities: CommunityDirectory;
  /** Reads over every public community's threads at once (the network's). */
  readonly publicThreads: PublicThreads;
  readonly people: PeopleRepository;
  /** Credentials, sessions, user keys, agent keys by hash, the audit log (./identity.ts). */
  readonly identity: IdentityRepositories;
  /** MCP sessions shared by every instance: the engine's session store contract, kept in the database. */
  readonly mcpSessions: SessionStore;
  /** Each community's declarative MCP configuration (./community-mcp.ts). */
  readonly mcpConfig: CommunityMcpConfigRepository;
  /** Webhook deliveries across communities, for the dispatcher only (./webhooks.ts). */
  readonly webhookQueue: WebhookQueue;
  /** OAuth signing keys, client policies and clients, grants, codes, refresh tokens (./oauth.ts). */
  readonly oauth: OAuthRepository;
  /** Notifications still to be mailed, over every community: for the mail side only. */
  readonly notificationMail: NotificationMailQueue;
  /** Topic views counted in memory, added in batches over every community (./topic-reads.ts). */
  readonly topicViews: TopicViewCounts;
  /** Deleting old rows in bounded batches, across communities (./retention.ts). */
  readonly retention: RetentionRepository;
  /** Maintenance mode, shared by every instance (./kysely/maintenance.ts). */
  readonly maintenance: MaintenanceRepository;
  /** Outbound mails across communities, and the kinds people turned off (./mail.ts). */
  readonly mail: MailOutbox;
  /** Single-use account links, verified addresses, the rule for unverified accounts (./mail.ts). */
  readonly accountTokens: AccountTokens;
  /** The only way to reach a community's content. */
  community(communityId: string): CommunityScope;
  /**
   * Runs fn in one database transaction (committed when fn resolves, rolled back when it throws).
   * Nested calls on the transaction's store join the outer transaction.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /** Applies pending migrations; returns the names applied now. */
  migrate(): Promise<string[]>;
  /** Which migrations the database holds, against the ones this version knows. */
  schemaState(): Promise<SchemaState>;
  /** Applies or reverts migrations until the schema is at `target` (./kysely/migrations-runner.ts). */
  migrateTo(target: string): Promise<{ applied: string[]; reverted: string[] }>;
  /** Readiness: resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Readiness: resolves when the database takes a write now (one heartbeat row, committed). */
  probeWrite(): Promise<void>;
  close(): Promise<void>;
}

/** Maintenance mode while it is on: the message writers are shown, and since when (ms). */
export type MaintenanceState = { message: string; since: number };

export interface MaintenanceRepository {
  get(): Promise<MaintenanceState | undefined>;
  /** Turns it on with `message` (kept since the first time), or off with null. */
  set(message: string | null, now?: number): Promise<void>;
}
