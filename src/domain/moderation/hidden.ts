// Hidden posts in what readers are shown: a hidden post is left out for visitors, members and
// agents (web, REST, MCP, search, feeds), and kept with a notice of why for those who decide the
// review queue (moderators, agents with approval:decide, the system). A topic whose question is
// hidden is hidden as a whole.
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { HiddenPost } from '../../store/moderation.ts';
import type { Actor } from '../actor.ts';
import { requireDecider } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import type { HiddenNotice, PostView } from '../views.ts';

/** Whether `actor` decides the review queue here, and so is shown hidden posts. */
export async function seesHidden(
  store: Store,
  actor: Actor,
  community: Community,
): Promise<boolean> {
  if (actor.kind === 'anonymous') return false;
  try {
    await requireDecider(store, actor, community);
    return true;
  } catch {
    return false;
  }
}

export function hiddenNotice(h: HiddenPost): HiddenNotice {
  return { cause: h.cause, note: h.note, by: h.byName, at: h.hiddenAt };
}

/** The not_found a reader gets for a topic whose question is hidden (as for one that does not exist). */
export function hiddenTopic(reference: string, community: Community): DomainError {
  return new DomainError(
    'not_found',
    `No topic "${reference}" in "${community.slug}". Search or list topics to find one.`,
  );
}

/**
 * One page of a topic's posts as `actor` is shown them: hidden posts left out (not_found for the
 * whole topic when its question is hidden), or for a decider kept with their notice.
 */
export async function shownInTopic(
  store: Store,
  actor: Actor,
  community: Community,
  topic: { id: string; slug: string; moderation?: { hasHidden?: boolean } },
  posts: PostView[],
): Promise<PostView[]> {
  // A topic read alone says whether anything in it is hidden: nothing to look up when not.
  if (topic.moderation?.hasHidden === false) return posts;
  const hidden = new Map(
    (await store.community(community.id).moderation.hiddenInTopic(topic.id)).map((h) => [
      h.postId,
      h,
    ]),
  );
  if (hidden.size === 0) return posts;
  if (!(await seesHidden(store, actor, community))) {
    if ([...hidden.values()].some((h) => h.position === 1))
      throw hiddenTopic(topic.slug, community);
    return posts.filter((p) => !hidden.has(p.id));
  }
  return posts.map((p) => {
    const h = hidden.get(p.id);
    return h ? { ...p, hidden: hiddenNotice(h) } : p;
  });
}

/**
 * The posts `actor` is shown of `posts` (search results, feeds): hidden ones dropped,
 * or for a decider kept with their notice (`mark`). One query for the page, none when nothing hides.
 */
export async function shownPosts<P extends { id: string }>(
  store: Store,
  actor: Actor,
  community: Community,
  posts: P[],
  mark: (post: P, notice: HiddenNotice) => P,
): Promise<P[]> {
  if (posts.length === 0) return posts;
  const hidden = new Map(
    (await store.community(community.id).moderation.hiddenAmong(posts.map((p) => p.id))).map(
      (h) => [h.postId, h],
    ),
  );
  if (hidden.size === 0) return posts;
  if (!(await seesHidden(store, actor, community))) return posts.filter((p) => !hidden.has(p.id));
  return posts.map((p) => {
    const h = hidden.get(p.id);
    return h ? mark(p, hiddenNotice(h)) : p;
  });
}

/** A page of topics without those whose question is hidden (kept for deciders). */
export async function shownTopics<T extends { id: string }>(
  store: Store,
  actor: Actor,
  community: Community,
  topics: T[],
): Promise<T[]> {
  const hidden = (
    await store.community(community.id).moderation.hiddenInTopics(topics.map((t) => t.id))
  ).filter((h) => h.position === 1);
  if (hidden.length === 0 || (await seesHidden(store, actor, community))) return topics;
  const gone = new Set(hidden.map((h) => h.topicId));
  return topics.filter((t) => !gone.has(t.id));
}

/** A search result as far as hiding goes: its topic, the post it is (or the topic), its community. */
type Found = { source_type: string; source_id: string; topic_id: string; community?: string };

/**
 * Search results without hidden posts, nor any result of a topic whose question is hidden: search
 * shows nobody hidden posts (moderators find them in the review queue). One query: in the one
 * community searched, or across the public communities of a network search's page; none when
 * there are no results.
 */
export async function withoutHidden<R extends Found>(
  store: Store,
  communities: Community[],
  results: R[],
): Promise<R[]> {
  if (results.length === 0) return results;
  const hiddenPosts = new Set<string>();
  const hiddenTopics = new Set<string>();
  const bySlug = new Map(communities.map((c) => [c.slug, c.id]));
  const threads = results.flatMap((r) => {
    const communityId =
      communities.length === 1 ? communities[0]!.id : bySlug.get(r.community ?? '');
    return communityId ? [{ communityId, topicId: r.topic_id }] : [];
  });
  const hidden =
    communities.length > 1 && communities.every((c) => c.visibility === 'public')
      ? await store.publicThreads.hidden(threads)
      : (
          await Promise.all(
            communities.map((c) =>
              store
                .community(c.id)
                .moderation.hiddenInTopics(
                  results
                    .filter((r) => communities.length === 1 || r.community === c.slug)
                    .map((r) => r.topic_id),
                ),
            ),
          )
        ).flat();
  for (const h of hidden) {
    hiddenPosts.add(h.postId);
    if (h.position === 1) hiddenTopics.add(h.topicId);
  }
  if (hiddenPosts.size === 0) return results;
  return results.filter(
    (r) =>
      !hiddenTopics.has(r.topic_id) && !(r.source_type === 'post' && hiddenPosts.has(r.source_id)),
  );
}
