// topic.lock / topic.unlock: a locked topic takes no new replies and no edits (closing only stops
// replies); unlocking leaves its open/closed status as it was.
import { z } from 'zod';
import type { Topic } from '../../store/types.ts';
import { loadTopic, onTopic, type ModeratorWrite } from './moderator-write.ts';

const contract = z.object(onTopic);

export const topicLock: ModeratorWrite<typeof contract, Topic> = {
  action: 'lock',
  what: 'lock topics',
  contract,
  load: (tx, community, input) => loadTopic(tx, community, input.topic),
  apply: async (tx, community, _input, topic, { at }) => {
    if (topic.moderation.lockedAt) return { topic, unchanged: true };
    return {
      topic: (await tx
        .community(community.id)
        .moderatorActions.setTopic(topic.id, { lockedAt: at }))!,
    };
  },
};

export const topicUnlock: ModeratorWrite<typeof contract, Topic> = {
  action: 'unlock',
  what: 'unlock topics',
  contract,
  load: (tx, community, input) => loadTopic(tx, community, input.topic),
  apply: async (tx, community, _input, topic) => {
    if (!topic.moderation.lockedAt) return { topic, unchanged: true };
    return {
      topic: (await tx
        .community(community.id)
        .moderatorActions.setTopic(topic.id, { lockedAt: null }))!,
    };
  },
};
