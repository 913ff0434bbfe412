// topic.close / topic.reopen: a closed topic takes no new replies (the reply is refused with the
// reason); reopening also ends a "closed as a duplicate" (the link to the original goes with it).
import { z } from 'zod';
import type { Topic } from '../../store/types.ts';
import { changed, loadTopic, onTopic, type ModeratorWrite } from './moderator-write.ts';

const contract = z.object(onTopic);

export const topicClose: ModeratorWrite<typeof contract, Topic> = {
  action: 'close',
  what: 'close topics',
  contract,
  load: (tx, community, input) => loadTopic(tx, community, input.topic),
  apply: async (tx, community, _input, topic) => {
    if (topic.status === 'closed') return { topic, unchanged: true };
    await tx.community(community.id).topics.update(topic.id, { status: 'closed' });
    return { topic: await changed(tx, community, topic.id) };
  },
};

export const topicReopen: ModeratorWrite<typeof contract, Topic> = {
  action: 'reopen',
  what: 'reopen topics',
  contract,
  load: (tx, community, input) => loadTopic(tx, community, input.topic),
  apply: async (tx, community, _input, topic) => {
    if (topic.status === 'open' && !topic.moderation.duplicateOf) return { topic, unchanged: true };
    const scope = tx.community(community.id);
    await scope.topics.update(topic.id, { status: 'open' });
    if (topic.moderation.duplicateOf)
      await scope.moderatorActions.setTopic(topic.id, { duplicateOf: null });
    return { topic: await changed(tx, community, topic.id) };
  },
};
