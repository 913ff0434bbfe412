// topic.lock / topic.unlock: a locked topic takes no new replies and no edits (closing only stops
// replies); unlocking leaves its open/closed status as it was.
import { z } from 'zod';
import { changed, liveTopicNow, loadTopic, moderatorWrite, onTopic } from './moderator-write.ts';

const contract = z.object(onTopic);

export const topicLock = moderatorWrite({
  action: 'lock',
  what: 'lock topics',
  contract,
  load: (scope, _community, input) => loadTopic(scope, input.topic),
  apply: async ({ scope, at }, _input, loaded) => {
    const topic = await liveTopicNow(scope, loaded);
    if (topic.moderation.lockedAt) return { topic, unchanged: true };
    return { topic: await changed(scope.moderatorActions.setTopic(topic.id, { lockedAt: at })) };
  },
});

export const topicUnlock = moderatorWrite({
  action: 'unlock',
  what: 'unlock topics',
  contract,
  load: (scope, _community, input) => loadTopic(scope, input.topic),
  apply: async ({ scope }, _input, loaded) => {
    const topic = await liveTopicNow(scope, loaded);
    if (!topic.moderation.lockedAt) return { topic, unchanged: true };
    return { topic: await changed(scope.moderatorActions.setTopic(topic.id, { lockedAt: null })) };
  },
});
