// topic.pin / topic.unpin: a pinned topic is listed first (its category's and the community's
// first page of topics, most recently pinned first).
import { z } from 'zod';
import { changed, liveTopicNow, loadTopic, moderatorWrite, onTopic } from './moderator-write.ts';

const contract = z.object(onTopic);

export const topicPin = moderatorWrite({
  action: 'pin',
  what: 'pin topics',
  contract,
  load: (scope, _community, input) => loadTopic(scope, input.topic),
  apply: async ({ scope, at }, _input, loaded) => {
    const topic = await liveTopicNow(scope, loaded);
    if (topic.moderation.pinnedAt) return { topic, unchanged: true };
    return { topic: await changed(scope.moderatorActions.setTopic(topic.id, { pinnedAt: at })) };
  },
});

export const topicUnpin = moderatorWrite({
  action: 'unpin',
  what: 'unpin topics',
  contract,
  load: (scope, _community, input) => loadTopic(scope, input.topic),
  apply: async ({ scope }, _input, loaded) => {
    const topic = await liveTopicNow(scope, loaded);
    if (!topic.moderation.pinnedAt) return { topic, unchanged: true };
    return { topic: await changed(scope.moderatorActions.setTopic(topic.id, { pinnedAt: null })) };
  },
});
