// topic.pin / topic.unpin: a pinned topic is listed first (its category's and the community's
// first page of topics, most recently pinned first).
import { z } from 'zod';
import type { Topic } from '../../store/types.ts';
import { loadTopic, onTopic, type ModeratorWrite } from './moderator-write.ts';

const contract = z.object(onTopic);

export const topicPin: ModeratorWrite<typeof contract, Topic> = {
  action: 'pin',
  what: 'pin topics',
  contract,
  load: (tx, community, input) => loadTopic(tx, community, input.topic),
  apply: async (tx, community, _input, topic, { at }) => {
    if (topic.moderation.pinnedAt) return { topic, unchanged: true };
    return {
      topic: (await tx
        .community(community.id)
        .moderatorActions.setTopic(topic.id, { pinnedAt: at }))!,
    };
  },
};

export const topicUnpin: ModeratorWrite<typeof contract, Topic> = {
  action: 'unpin',
  what: 'unpin topics',
  contract,
  load: (tx, community, input) => loadTopic(tx, community, input.topic),
  apply: async (tx, community, _input, topic) => {
    if (!topic.moderation.pinnedAt) return { topic, unchanged: true };
    return {
      topic: (await tx
        .community(community.id)
        .moderatorActions.setTopic(topic.id, { pinnedAt: null }))!,
    };
  },
};
