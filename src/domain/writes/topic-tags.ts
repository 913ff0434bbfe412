// topic.tags: a moderator replaces a topic's tags (at most 5; the same rule as when it was asked).
import { z } from 'zod';
import { tags } from '../fields.ts';
import { changed, liveTopicNow, loadTopic, moderatorWrite, onTopic } from './moderator-write.ts';

const contract = z.object({ ...onTopic, tags });

export const topicTags = moderatorWrite({
  action: 'tags',
  what: 'edit the tags of topics',
  contract,
  load: (scope, _community, input) => loadTopic(scope, input.topic),
  apply: async ({ scope }, input, loaded) => {
    const topic = await liveTopicNow(scope, loaded);
    const wanted = [...new Set(input.tags)].sort();
    if (wanted.join(' ') === [...topic.tags].sort().join(' ')) return { topic, unchanged: true };
    await scope.topics.setTags(topic.id, wanted);
    return {
      topic: await changed(scope.topics.update(topic.id, {})),
      detail: `tags: ${wanted.join(', ') || '(none)'} (were ${topic.tags.join(', ') || '(none)'})`,
    };
  },
});
