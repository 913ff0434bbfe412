// topic.delete / topic.restore: a soft delete that keeps who and why. A deleted topic is invisible
// to visitors and agents (not found; out of listings and search), shown to moderators with a
// "deleted by X: why" notice; restoring brings it back, search included (migration 0089).
import { z } from 'zod';
import type { Topic } from '../../store/types.ts';
import { findTopic } from '../content-lookup.ts';
import { moderationReason, topicRef } from '../fields.ts';
import { onTopic, type ModeratorWrite } from './moderator-write.ts';

const deleteContract = z.object({
  topic: topicRef,
  reason: moderationReason.min(1, 'say why it is deleted: the log and the notice show it'),
});
const restoreContract = z.object(onTopic);

export const topicDelete: ModeratorWrite<typeof deleteContract, Topic> = {
  action: 'delete',
  what: 'delete topics',
  contract: deleteContract,
  load: (tx, community, input) => findTopic(tx.community(community.id), input.topic),
  apply: async (tx, community, input, topic, { moderator, at }) => {
    if (topic.moderation.deleted) return { topic, unchanged: true };
    const deleted = { at, by: moderator.name, reason: input.reason };
    return {
      topic: (await tx.community(community.id).moderatorActions.setTopic(topic.id, { deleted }))!,
    };
  },
};

export const topicRestore: ModeratorWrite<typeof restoreContract, Topic> = {
  action: 'restore',
  what: 'restore deleted topics',
  contract: restoreContract,
  load: (tx, community, input) => findTopic(tx.community(community.id), input.topic),
  apply: async (tx, community, _input, topic) => {
    if (!topic.moderation.deleted) return { topic, unchanged: true };
    return {
      topic: (await tx
        .community(community.id)
        .moderatorActions.setTopic(topic.id, { deleted: null }))!,
    };
  },
};
