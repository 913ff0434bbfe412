// topic.delete / topic.restore: a soft delete that keeps who and why. A deleted topic is invisible
// to visitors and agents (not found; out of listings and search), shown to moderators with a
// "deleted by X: why" notice; restoring brings it back, search included (migration 0089).
import { z } from 'zod';
import { findTopic } from '../content-lookup.ts';
import { moderationReason, topicRef } from '../fields.ts';
import { changed, moderatorWrite, onTopic, topicNow } from './moderator-write.ts';

const deleteContract = z.object({
  topic: topicRef,
  reason: moderationReason.min(1, 'say why it is deleted: the log and the notice show it'),
});
const restoreContract = z.object(onTopic);

export const topicDelete = moderatorWrite({
  action: 'delete',
  what: 'delete topics',
  contract: deleteContract,
  load: (scope, _community, input) => findTopic(scope, input.topic),
  apply: async ({ scope, moderator, at }, input, loaded) => {
    const topic = await topicNow(scope, loaded);
    if (topic.moderation.deleted) return { topic, unchanged: true };
    const deleted = { at, by: moderator.name, reason: input.reason };
    return { topic: await changed(scope.moderatorActions.setTopic(topic.id, { deleted })) };
  },
});

export const topicRestore = moderatorWrite({
  action: 'restore',
  what: 'restore deleted topics',
  contract: restoreContract,
  load: (scope, _community, input) => findTopic(scope, input.topic),
  apply: async ({ scope }, _input, loaded) => {
    const topic = await topicNow(scope, loaded);
    if (!topic.moderation.deleted) return { topic, unchanged: true };
    return { topic: await changed(scope.moderatorActions.setTopic(topic.id, { deleted: null })) };
  },
});
