// What services return: store records shaped for callers (MCP, REST, web). Authors carry the agent
// label the spec requires; posts carry both Markdown source and sanitized HTML; topics their URL.
import type { Config } from '../config/config.ts';
import type {
  CategoryApproval,
  AuthorRef,
  Category,
  CategoryKind,
  Community,
  Deletion,
  Post,
  Topic,
  TopicStatus,
} from '../store/types.ts';
import type { PostSignals } from '../store/votes.ts';
import { shownHtml } from './rendering.ts';
import { topicUrl } from './urls.ts';

export type AuthorView =
  | { kind: 'person'; id: string | null; name: string; label?: string }
  | { kind: 'agent'; id: string | null; name: string; label: string }
  | { kind: 'system'; id: null; name: string };

export type CategoryView = {
  id: string;
  slug: string;
  name: string;
  description: string;
  position: number;
  kind: CategoryKind;
  /** null: the community's approval policy applies to new topics in it. */
  approvalPolicy: CategoryApproval;
};

export type TopicView = {
  id: string;
  slug: string;
  title: string;
  url: string;
  category: Pick<CategoryView, 'id' | 'slug' | 'name' | 'kind'>;
  author: AuthorView;
  status: TopicStatus;
  tags: string[];
  isArticle: boolean;
  solutionPostId: string | null;
  postCount: number;
  replyCount: number;
  createdAt: string;
  updatedAt: string;
  lastPostedAt: string;
  locked: boolean;
  pinned: boolean;
  /** Closed as a duplicate of this topic (its id). */
  duplicateOf: string | null;
  /** Its posts were merged into this topic (its id). */
  mergedInto: string | null;
  /** A moderator's soft delete (only moderators are shown a deleted topic). */
  deleted: Deletion | null;
};

export type PostView = {
  id: string;
  topicId: string;
  position: number;
  url: string;
  author: AuthorView;
  /** Markdown source. */
  body: string;
  /** Rendered and sanitized HTML: the render stored with the post (./rendering.ts). */
  html: string;
  isQuestion: boolean;
  isSolution: boolean;
  createdAt: string;
  editedAt: string | null;
  /** Its votes and "this worked" reports, where the reader attached them (get_topic, the web). */
  signals?: PostSignals;
  /** Set on a hidden post, which only moderators are shown (../moderation/hidden.ts). */
  hidden?: HiddenNotice;
  /** A moderator's soft delete (only moderators are shown a deleted post). */
  deleted: Deletion | null;
};

/** Why a post is hidden, as moderators see it above the post. */
export type HiddenNotice = {
  cause: 'flags' | 'moderator';
  note: string | null;
  by: string;
  at: string;
};

export type CommunityView = {
  id: string;
  slug: string;
  name: string;
  description: string;
  guidelines: string;
  visibility: 'public' | 'private';
  customDomain: string | null;
  createdAt: string;
};

export function agentLabel(agentName: string, communitySlug: string): string {
  return `posted by agent ${agentName} on behalf of community ${communitySlug}`;
}

export function authorView(author: AuthorRef, community: Pick<Community, 'slug'>): AuthorView {
  if (author.kind === 'agent') {
    return {
      kind: 'agent',
      id: author.id,
      name: author.name,
      label: agentLabel(author.name, community.slug),
    };
  }
  if (author.kind === 'system') return { kind: 'system', id: null, name: author.name };
  if (author.via)
    return {
      kind: 'person',
      id: author.id,
      name: author.name,
      label: personViaLabel(author.name, author.via),
    };
  return { kind: 'person', id: author.id, name: author.name };
}

export function personViaLabel(personName: string, clientName: string): string {
  return `posted by ${personName} via ${clientName}`;
}

export function categoryView(category: Category): CategoryView {
  const { id, slug, name, description, position, kind, approvalPolicy } = category;
  return { id, slug, name, description, position, kind, approvalPolicy };
}

export function communityView(c: Community): CommunityView {
  const { id, slug, name, description, guidelines, visibility, customDomain, createdAt } = c;
  return { id, slug, name, description, guidelines, visibility, customDomain, createdAt };
}

export function topicView(
  config: Config,
  community: Community,
  topic: Topic,
  category: Category,
): TopicView {
  return {
    id: topic.id,
    slug: topic.slug,
    title: topic.title,
    url: topicUrl(config, community, topic.slug),
    category: { id: category.id, slug: category.slug, name: category.name, kind: category.kind },
    author: authorView(topic.author, community),
    status: topic.status,
    tags: topic.tags,
    isArticle: category.kind === 'knowledge_base',
    solutionPostId: topic.solutionPostId,
    postCount: topic.postCount,
    replyCount: Math.max(0, topic.postCount - 1),
    createdAt: topic.createdAt,
    updatedAt: topic.updatedAt,
    lastPostedAt: topic.lastPostedAt,
    locked: topic.moderation.lockedAt !== null,
    pinned: topic.moderation.pinnedAt !== null,
    duplicateOf: topic.moderation.duplicateOf,
    mergedInto: topic.moderation.mergedInto,
    deleted: topic.moderation.deleted,
  };
}

/** A post as shown; of its topic only the address and the accepted answer are read. */
export function postView(
  config: Config,
  community: Community,
  topic: Pick<Topic, 'slug' | 'solutionPostId'>,
  post: Post,
): PostView {
  return {
    id: post.id,
    topicId: post.topicId,
    position: post.position,
    url: topicUrl(config, community, topic.slug, post.id),
    author: authorView(post.author, community),
    body: post.body,
    html: shownHtml(post),
    isQuestion: post.position === 1,
    isSolution: topic.solutionPostId === post.id,
    createdAt: post.createdAt,
    editedAt: post.editedAt,
    deleted: post.deleted,
  };
}
