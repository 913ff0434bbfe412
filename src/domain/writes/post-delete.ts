// post.delete / post.restore (audited as topic.delete_post / topic.restore_post): a reply's soft
// delete with who and why, invisible to visitors and agents, shown to moderators with the notice;
// restored, it is shown and searchable again. The question is the topic: delete the topic instead.
import { z } from 'zod';
import type { CommunityScope } from '../../store/repositories.ts';
import type { Post, Topic } from '../../store/types.ts';
import { DomainError } from '../errors.ts';
import { moderationReason, recordId } from '../fields.ts';
import { changed, moderatorWrite } from './moderator-write.ts';

const deleteContract = z.object({
  post: recordId,
  reason: moderationReason.min(1, 'say why it is deleted: the log and the notice show it'),
});
const restoreContract = z.object({ post: recordId, reason: moderationReason.default('') });

/** The post a moderator names (not_found says where to find post ids). */
async function findPost(scope: CommunityScope, ref: string): Promise<Post> {
  const post = await scope.posts.getById(ref);
  if (!post)
    throw new DomainError(
      'not_found',
      `No post "${ref}" in this community. Use a post id from get_topic.`,
    );
  return post;
}

/** The post as the action's transaction reads it (it was found before: it still exists). */
async function postNow(scope: CommunityScope, loaded: Post): Promise<Post> {
  return (await scope.posts.getById(loaded.id)) ?? loaded;
}

/** The post's topic, read in the action's transaction. */
async function topicOf(scope: CommunityScope, post: Post): Promise<Topic> {
  return changed(scope.topics.getById(post.topicId));
}

export const postDelete = moderatorWrite({
  action: 'delete_post',
  what: 'delete posts',
  contract: deleteContract,
  load: (scope, _community, input) => findPost(scope, input.post),
  apply: async ({ scope, moderator, at }, input, loaded) => {
    const post = await postNow(scope, loaded);
    if (post.position === 1)
      throw new DomainError(
        'invalid_argument',
        `That post is the question of "${(await topicOf(scope, post)).title}": delete the topic instead.`,
      );
    if (post.deleted) return { topic: await topicOf(scope, post), post, unchanged: true };
    const deleted = { at, by: moderator.name, reason: input.reason };
    await scope.moderatorActions.setPostDeleted(post.id, deleted);
    return { topic: await topicOf(scope, post), post: { ...post, deleted } };
  },
});

export const postRestore = moderatorWrite({
  action: 'restore_post',
  what: 'restore deleted posts',
  contract: restoreContract,
  load: (scope, _community, input) => findPost(scope, input.post),
  apply: async ({ scope }, _input, loaded) => {
    const post = await postNow(scope, loaded);
    const topic = await topicOf(scope, post);
    if (!post.deleted) return { topic, post, unchanged: true };
    if (topic.moderation.deleted)
      throw new DomainError(
        'conflict',
        `The topic "${topic.title}" is deleted: restore the topic first, then its posts.`,
      );
    await scope.moderatorActions.setPostDeleted(post.id, null);
    return { topic, post: { ...post, deleted: null } };
  },
});
