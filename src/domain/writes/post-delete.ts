// post.delete / post.restore (audited as topic.delete_post / topic.restore_post): a reply's soft
// delete with who and why, invisible to visitors and agents, shown to moderators with the notice;
// restored, it is shown and searchable again. The question is the topic: delete the topic instead.
import { z } from 'zod';
import type { Post, Topic } from '../../store/types.ts';
import { DomainError } from '../errors.ts';
import { moderationReason, recordId } from '../fields.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import { changed, type ModeratorWrite } from './moderator-write.ts';

const deleteContract = z.object({
  post: recordId,
  reason: moderationReason.min(1, 'say why it is deleted: the log and the notice show it'),
});
const restoreContract = z.object({ post: recordId, reason: moderationReason.default('') });

type Loaded = { post: Post; topic: Topic };

async function load(tx: Store, community: Community, ref: string): Promise<Loaded> {
  const scope = tx.community(community.id);
  const post = await scope.posts.getById(ref);
  if (!post)
    throw new DomainError(
      'not_found',
      `No post "${ref}" in this community. Use a post id from get_topic.`,
    );
  return { post, topic: (await scope.topics.getById(post.topicId))! };
}

export const postDelete: ModeratorWrite<typeof deleteContract, Loaded> = {
  action: 'delete_post',
  what: 'delete posts',
  contract: deleteContract,
  load: (tx, community, input) => load(tx, community, input.post),
  apply: async (tx, community, input, { post, topic }, { moderator, at }) => {
    if (post.position === 1)
      throw new DomainError(
        'invalid_argument',
        `That post is the question of "${topic.title}": delete the topic instead.`,
      );
    if (post.deleted) return { topic, post, unchanged: true };
    const deleted = { at, by: moderator.name, reason: input.reason };
    await tx.community(community.id).moderatorActions.setPostDeleted(post.id, deleted);
    return { topic: await changed(tx, community, topic.id), post: { ...post, deleted } };
  },
};

export const postRestore: ModeratorWrite<typeof restoreContract, Loaded> = {
  action: 'restore_post',
  what: 'restore deleted posts',
  contract: restoreContract,
  load: (tx, community, input) => load(tx, community, input.post),
  apply: async (tx, community, _input, { post, topic }) => {
    if (!post.deleted) return { topic, post, unchanged: true };
    if (topic.moderation.deleted)
      throw new DomainError(
        'conflict',
        `The topic "${topic.title}" is deleted: restore the topic first, then its posts.`,
      );
    await tx.community(community.id).moderatorActions.setPostDeleted(post.id, null);
    return { topic, post: { ...post, deleted: null } };
  },
};
