// topic.close / topic.reopen: a closed topic takes no new replies (the reply is refused with the
// reason); reopening also ends a "closed as a duplicate" (the link to the original goes with it).
import { z } from 'zod';
import { changed, liveTopicNow, loadTopic, moderatorWrite, onTopic } from './moderator-write.ts';

const contract = z.object(onTopic);

export const topicClose = moderatorWrite({
  action: 'close',
  what: 'close topics',
  contract,
  load: (scope, _community, input) => loadTopic(scope, input.topic),
  apply: async ({ scope }, _input, loaded) => {
    const topic = await liveTopicNow(scope, loaded);
    if (topic.status === 'closed') return { topic, unchanged: true };
    return { topic: await changed(scope.topics.update(topic.id, { status: 'closed' })) };
  },
});

export const topicReopen = moderatorWrite({
  action: 'reopen',
  what: 'reopen topics',
  contract,
  load: (scope, _community, input) => loadTopic(scope, input.topic),
  apply: async ({ scope }, _input, loaded) => {
    const topic = await liveTopicNow(scope, loaded);
    if (topic.status === 'open' && !topic.moderation.duplicateOf) return { topic, unchanged: true };
    const reopened = await changed(scope.topics.update(topic.id, { status: 'open' }));
    if (!topic.moderation.duplicateOf) return { topic: reopened };
    return {
      topic: await changed(scope.moderatorActions.setTopic(topic.id, { duplicateOf: null })),
    };
  },
});
