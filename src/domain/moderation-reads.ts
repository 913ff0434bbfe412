// What moderators' actions change for everyone else (issue 24): a deleted topic or post is not
// found by visitors and agents and is shown to moderators with who and why; a closed, locked,
// deleted or merged topic refuses replies, a locked one edits too, each with its reason; a topic
// closed as a duplicate links to its original, and the original to its duplicates; the pinned
// topics head a listing's first page.
import type { Config } from '../config/config.ts';
import type { CommunityScope, Store } from '../store/repositories.ts';
import type { Community, Post, Topic } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { seesDeleted } from './authorization.ts';
import { seesHidden } from './moderation/hidden.ts';
import { DomainError } from './errors.ts';
import { topicUrl } from './urls.ts';

/** Another topic as a page links to it. */
export type TopicLink = { id: string; title: string; url: string };

/** The topic, unless it is deleted and the actor is not a moderator (then the same not_found as a missing one). */
export async function visibleTopic(
  store: Store,
  actor: Actor,
  community: Community,
  topic: Topic,
): Promise<{ topic: Topic; moderator: boolean }> {
  const moderator = await seesDeleted(store, actor, community);
  if (topic.moderation.deleted && !moderator)
    throw new DomainError(
      'not_found',
      `No topic "${topic.slug}" in this community. Use a topic id or slug from list_topics or search.`,
    );
  return { topic, moderator };
}

/** Whether `actor` may read this topic, and this post of it, now (as the topic page decides: a
 * deleted topic or post only for moderators, a hidden post or a topic whose question is hidden
 * only for those who decide the review queue). */
export async function mayRead(
  store: Store,
  actor: Actor,
  community: Community,
  topic: Topic,
  post: Post | undefined,
): Promise<boolean> {
  const deletedGone = topic.moderation.deleted || post?.deleted;
  if (deletedGone && !(await seesDeleted(store, actor, community))) return false;
  if (topic.moderation.hasHidden === false) return true;
  const hidden = await store.community(community.id).moderation.hiddenInTopics([topic.id]);
  const gone = hidden.some((h) => h.position === 1 || h.postId === post?.id);
  return !gone || seesHidden(store, actor, community);
}

/** The posts a reader is shown: without the deleted ones, unless the reader is a moderator. */
export function visiblePosts(posts: Post[], moderator: boolean): Post[] {
  return moderator ? posts : posts.filter((p) => !p.deleted);
}

/** Refuses a reply to a topic a moderator closed, locked, deleted or merged away, saying why. */
export function refuseReply(topic: Topic): void {
  const m = topic.moderation;
  const why = m.mergedInto
    ? 'was merged into another topic: reply there'
    : m.deleted
      ? 'is deleted'
      : m.lockedAt
        ? 'is locked by a moderator and takes no new replies or edits'
        : m.duplicateOf
          ? 'is closed as a duplicate and takes no new replies: reply to the original topic'
          : topic.status === 'closed'
            ? 'is closed and takes no new replies. Start a new topic instead'
            : undefined;
  if (why) throw new DomainError('conflict', `The topic "${topic.title}" ${why}.`);
}

/** Refuses an edit in a locked topic, or of a deleted post. */
export function refuseEdit(topic: Topic, post: Post): void {
  if (topic.moderation.lockedAt)
    throw new DomainError(
      'conflict',
      `The topic "${topic.title}" is locked by a moderator: its posts cannot be edited.`,
    );
  if (post.deleted || topic.moderation.deleted)
    throw new DomainError('conflict', 'That post was deleted by a moderator: it cannot be edited.');
}

/** The original of a duplicate, and the duplicates of an original, as links. */
export async function topicLinks(
  config: Config,
  scope: CommunityScope,
  community: Community,
  topic: Topic,
): Promise<{ duplicateOf?: TopicLink; duplicates: TopicLink[] }> {
  const link = (t: { id: string; slug: string; title: string }): TopicLink => ({
    id: t.id,
    title: t.title,
    url: topicUrl(config, community, t.slug),
  });
  const original = topic.moderation.duplicateOf
    ? await scope.topics.getById(topic.moderation.duplicateOf)
    : undefined;
  const duplicates =
    topic.moderation.hasDuplicates === false
      ? []
      : await scope.moderatorActions.duplicatesOf(topic.id);
  return {
    ...(original && !original.moderation.deleted ? { duplicateOf: link(original) } : {}),
    duplicates: duplicates.map(link),
  };
}

/** A first page's pinned topics (most recently pinned first), shown above the rest. */
export async function pinnedFirst(
  scope: CommunityScope,
  categoryId: string | undefined,
  firstPage: boolean,
): Promise<Topic[]> {
  return firstPage ? scope.moderatorActions.pinned(categoryId, 10) : [];
}
