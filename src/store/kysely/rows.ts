// Row → record mappers of the core tables (communities, people, topics, posts, …): column names to
// record fields, driver values normalized (dates, booleans, JSON). Each newer repository file keeps
// the mappers of its own tables beside its queries.
import type { Selectable } from 'kysely';
import type {
  ArticleRevisionsTable,
  AgentsTable,
  CategoriesTable,
  CommunitiesTable,
  PeopleTable,
  PostsTable,
  TopicsTable,
} from '../schema.ts';
import type {
  Agent,
  ArticleRevision,
  AuthorKind,
  AuthorRef,
  Category,
  CategoryApproval,
  CategoryKind,
  Community,
  Deletion,
  Person,
  Post,
  Rendered,
  Topic,
  TopicStatus,
  Visibility,
} from '../types.ts';
import { toIso, toIsoOrNull } from '../time.ts';

type AuthorColumns = {
  author_kind: string;
  author_id: string | null;
  author_name: string;
  author_via: string | null;
};

/** `via` is present only when set, so authors without one compare equal to plain references. */
export function authorRef(
  kind: string,
  id: string | null,
  name: string,
  via: string | null | undefined,
): AuthorRef {
  const author: AuthorRef = { kind: kind as AuthorKind, id, name };
  if (via) author.via = via;
  return author;
}

export function authorFromRow(row: AuthorColumns): AuthorRef {
  return authorRef(row.author_kind, row.author_id, row.author_name, row.author_via);
}

export function authorColumns(author: AuthorRef): AuthorColumns {
  return {
    author_kind: author.kind,
    author_id: author.id,
    author_name: author.name,
    author_via: author.via ?? null,
  };
}

/** A community row; the ordinals the database gives (migration 0112) are not part of a Community. */
type CommunityRow = Omit<Selectable<CommunitiesTable>, 'ordinal' | 'topic_ordinals'>;

export function communityFromRow(row: CommunityRow): Community {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    guidelines: row.guidelines,
    visibility: row.visibility as Visibility,
    customDomain: row.custom_domain,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function personFromRow(row: Selectable<PeopleTable>): Person {
  return {
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    handle: row.handle ?? null,
    createdAt: toIso(row.created_at),
  };
}

export function agentFromRow(row: Selectable<AgentsTable>): Agent {
  return {
    id: row.id,
    communityId: row.community_id,
    name: row.name,
    createdAt: toIso(row.created_at),
  };
}

export function categoryFromRow(row: Omit<Selectable<CategoriesTable>, 'topic_count'>): Category {
  return {
    id: row.id,
    communityId: row.community_id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    position: Number(row.position),
    kind: row.kind as CategoryKind,
    approvalPolicy: (row.approval_policy ?? null) as CategoryApproval,
    createdAt: toIso(row.created_at),
  };
}

/** The columns of migration 0088 (moderation): absent on a row made before it was read back. */
type Moderation<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;
type TopicRow = Moderation<
  Selectable<TopicsTable>,
  | 'locked_at'
  | 'pinned_at'
  | 'deleted_at'
  | 'deleted_by'
  | 'delete_reason'
  | 'duplicate_of'
  | 'merged_into'
  | 'ordinal'
>;
type PostRow = Moderation<Selectable<PostsTable>, 'deleted_at' | 'deleted_by' | 'delete_reason'>;

export function topicFromRow(row: TopicRow, tags: string[]): Topic {
  return {
    id: row.id,
    communityId: row.community_id,
    categoryId: row.category_id,
    slug: row.slug,
    title: row.title,
    author: authorFromRow(row),
    status: row.status as TopicStatus,
    tags,
    solutionPostId: row.solution_post_id,
    postCount: Number(row.post_count),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    lastPostedAt: toIso(row.last_posted_at),
    moderation: {
      lockedAt: toIsoOrNull(row.locked_at),
      pinnedAt: toIsoOrNull(row.pinned_at),
      deleted: deletionFromRow(row),
      duplicateOf: row.duplicate_of ?? null,
      mergedInto: row.merged_into ?? null,
    },
  };
}

/** A soft delete's columns (migration 0088) as one value; null when the row is not deleted. */
export function deletionFromRow(row: {
  deleted_at?: string | Date | null;
  deleted_by?: string | null;
  delete_reason?: string | null;
}): Deletion | null {
  if (row.deleted_at === null || row.deleted_at === undefined) return null;
  return { at: toIso(row.deleted_at), by: row.deleted_by ?? '', reason: row.delete_reason ?? '' };
}

/** The stored render of a row, if it has one (version 0: not rendered yet). */
export function renderedFromRow(row: {
  html: string | null;
  html_version: number;
}): Rendered | null {
  const version = Number(row.html_version);
  return row.html !== null && version > 0 ? { html: row.html, version } : null;
}

/** The columns that store `rendered` (nulls and 0 when absent). */
export function renderedColumns(rendered: Rendered | null | undefined): {
  html: string | null;
  html_version: number;
} {
  return { html: rendered?.html ?? null, html_version: rendered?.version ?? 0 };
}

export function postFromRow(row: PostRow): Post {
  return {
    id: row.id,
    communityId: row.community_id,
    topicId: row.topic_id,
    position: Number(row.position),
    author: authorFromRow(row),
    body: row.body,
    rendered: renderedFromRow(row),
    createdAt: toIso(row.created_at),
    editedAt: toIsoOrNull(row.edited_at),
    deleted: deletionFromRow(row),
  };
}

export function revisionFromRow(row: Selectable<ArticleRevisionsTable>): ArticleRevision {
  return {
    id: row.id,
    communityId: row.community_id,
    topicId: row.topic_id,
    revision: Number(row.revision),
    title: row.title,
    body: row.body,
    rendered: renderedFromRow(row),
    author: authorFromRow(row),
    createdAt: toIso(row.created_at),
  };
}
