// The post a flag or a moderator's decision is about, with its topic: not_found naming where post ids
// come from, and a hidden post is found only by those who see hidden posts (to anyone else it does
// not exist).
import type { Store } from '../../store/repositories.ts';
import type { Community, Post, Topic } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { seesHidden } from './hidden.ts';

export type FlagTarget = { post: Post; topic: Topic };

export async function flagTarget(
  store: Store,
  actor: Actor,
  community: Community,
  id: string,
): Promise<FlagTarget> {
  const scope = store.community(community.id);
  const post = await scope.posts.getById(id);
  const topic = post && (await scope.topics.getById(post.topicId));
  const missing = new DomainError(
    'not_found',
    `No post "${id}" in "${community.slug}". Use a post id from get_topic (posts[].id).`,
  );
  if (!post || !topic) throw missing;
  if (
    (await scope.moderation.hiddenAmong([post.id])).length > 0 &&
    !(await seesHidden(store, actor, community))
  )
    throw missing;
  return { post, topic };
}
