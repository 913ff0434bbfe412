// topic.tags: a moderator replaces a topic's tags (at most 5; the same rule as when it was asked).
import { z } from 'zod';
import type { Topic } from '../../store/types.ts';
import { tags } from '../fields.ts';
import { changed, loadTopic, onTopic, type ModeratorWrite } from './moderator-write.ts';

const contract = z.object({ ...onTopic, tags });

export const topicTags: ModeratorWrite<typeof contract, Topic> = {
  action: 'tags',
  what: 'edit the tags of topics',
  contract,
  load: (tx, community, input) => loadTopic(tx, community, input.topic),
  apply: async (tx, community, input, topic) => {
    const wanted = [...new Set(input.tags)].sort();
    if (wanted.join(' ') === [...topic.tags].sort().join(' ')) return { topic, unchanged: true };
    const scope = tx.community(community.id);
    await scope.topics.setTags(topic.id, wanted);
    await scope.topics.update(topic.id, {});
    return {
      topic: await changed(tx, community, topic.id),
      detail: `tags: ${wanted.join(', ') || '(none)'} (were ${topic.tags.join(', ') || '(none)'})`,
    };
  },
};
