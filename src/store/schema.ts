// Kysely table types. Ids are uuid (PostgreSQL) or TEXT (SQLite); timestamps are timestamptz
// (PostgreSQL, read back as Date) or ISO TEXT (SQLite): both are written as ISO strings and
// normalized on read by ./time.ts.
import type { ColumnType, Generated } from 'kysely';
import type { IdentityDatabase } from './identity-schema.ts';
import type { McpSessionTables } from './mcp-sessions-schema.ts';
import type { OAuthTables } from './oauth-schema.ts';

type Timestamp = string | Date;
/** A column added after the table's first migration: null unless set, never required on insert. */
type Later<T> = ColumnType<T | null, T | null | undefined, T | null>;
/** The connected app a person wrote through ("via Claude"), migration 0061; null otherwise. */
export type AuthorVia = ColumnType<string | null, string | null | undefined, string | null>;
/** A body's rendered HTML (migration 0074); null until rendered. */
export type RenderedHtml = ColumnType<string | null, string | null | undefined, string | null>;
/** The renderer version that made `html` (migration 0074); 0: not rendered yet. */
export type RenderedVersion = ColumnType<number, number | undefined, number>;

export interface CommunitiesTable {
  id: string;
  slug: string;
  name: string;
  description: string;
  guidelines: string;
  visibility: string;
  custom_domain: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Its place in creation order among all communities, given by the database (migration 0112). */
  ordinal: ListingOrdinal;
  /** The last ordinal given to one of its topics (migration 0112); kept by a trigger. */
  topic_ordinals: ColumnType<number | string, never, never>;
}

/** An ordinal the database gives on insert (a trigger or a sequence, migration 0112); read only. */
type ListingOrdinal = ColumnType<number | string | null, never, never>;

export interface PeopleTable {
  id: string;
  display_name: string;
  email: string | null;
  handle: string | null;
  created_at: Timestamp;
}

export interface AgentsTable {
  id: string;
  community_id: string;
  name: string;
  created_at: Timestamp;
}

export interface CategoriesTable {
  id: string;
  community_id: string;
  slug: string;
  name: string;
  description: string;
  position: number;
  kind: string;
  /** null: the community's policy per write kind; 'auto' or 'approval' for writes into it. */
  approval_policy: string | null;
  created_at: Timestamp;
  /** Its listed topics (not deleted, not merged), kept by triggers (migration 0105); read only. */
  topic_count: ColumnType<number | string, never, never>;
}

export interface TopicsTable {
  id: string;
  community_id: string;
  category_id: string;
  slug: string;
  title: string;
  author_kind: string;
  author_id: string | null;
  author_name: string;
  author_via: AuthorVia;
  status: string;
  solution_post_id: string | null;
  post_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_posted_at: Timestamp;
  /** Moderation (migration 0088). */
  locked_at: Later<Timestamp>;
  pinned_at: Later<Timestamp>;
  deleted_at: Later<Timestamp>;
  deleted_by: Later<string>;
  delete_reason: Later<string>;
  duplicate_of: Later<string>;
  merged_into: Later<string>;
  /** Its place in its community's creation order, given by the database (migration 0112). */
  ordinal: ListingOrdinal;
}

export interface TopicTagsTable {
  community_id: string;
  topic_id: string;
  tag: string;
}

export interface PostsTable {
  id: string;
  community_id: string;
  topic_id: string;
  position: number;
  author_kind: string;
  author_id: string | null;
  author_name: string;
  author_via: AuthorVia;
  body: string;
  html: RenderedHtml;
  html_version: RenderedVersion;
  created_at: Timestamp;
  edited_at: Timestamp | null;
  /** A moderator's soft delete (migration 0088). */
  deleted_at: Later<Timestamp>;
  deleted_by: Later<string>;
  delete_reason: Later<string>;
}

export interface ArticleRevisionsTable {
  id: string;
  community_id: string;
  topic_id: string;
  revision: number;
  title: string;
  body: string;
  html: RenderedHtml;
  html_version: RenderedVersion;
  author_kind: string;
  author_id: string | null;
  author_name: string;
  author_via: AuthorVia;
  created_at: Timestamp;
}

export interface ImportMessagesTable {
  community_id: string;
  message_key: string;
  topic_id: string;
  post_id: string;
  created_at: Timestamp;
}

export interface ImportPeopleTable {
  community_id: string;
  identity_hash: string;
  person_id: string;
}

/** One post's vector for one embedding model (migration 0020; written by src/search/embeddings.ts). */
export interface SearchEmbeddingsTable {
  post_id: string;
  community_id: string;
  model: string;
  dims: number;
  /** Little-endian float32 bytes. */
  vector: Uint8Array;
}

/** One topic's thread profile (migration 0021; written by src/search/profiles.ts). */
export interface SearchProfilesTable {
  topic_id: string;
  community_id: string;
  /** " term=t1q2a1r3 …": per term, its count in each field that holds it (src/search/profiles.ts). */
  terms: string;
  title_len: number;
  question_len: number;
  answer_len: number;
  replies_len: number;
}

/** Topics whose profile is missing or out of date (migration 0021's triggers); gen counts changes. */
export interface SearchProfileQueueTable {
  topic_id: string;
  gen: number;
}

/** What search learned from one community's text (migration 0022; written by src/search/lexicon.ts). */
export interface SearchLexiconTable {
  community_id: string;
  posts: number;
  topics: number;
  built_at: number | string;
  /** " term=n …" */
  df: string;
  /** " term=other:0.83,other2:0.5 …" */
  related: string;
}

/** Each community's MCP configuration document (migration 0010). */
export interface CommunityMcpTable {
  community_id: string;
  config: string;
  updated_at: number | string;
}

export interface Database extends IdentityDatabase, McpSessionTables, OAuthTables {
  search_embeddings: SearchEmbeddingsTable;
  search_profiles: SearchProfilesTable;
  search_profile_queue: SearchProfileQueueTable;
  search_lexicon: SearchLexiconTable;
  community_mcp_config: CommunityMcpTable;
  communities: CommunitiesTable;
  people: PeopleTable;
  agents: AgentsTable;
  categories: CategoriesTable;
  topics: TopicsTable;
  topic_tags: TopicTagsTable;
  posts: PostsTable;
  article_revisions: ArticleRevisionsTable;
  import_messages: ImportMessagesTable;
  import_people: ImportPeopleTable;
}
