// topic.merge: moves every post of a topic to the end of another (in order; its question becomes a
// reply there) and leaves the source closed, empty, as a pointer to the target. Search follows the
// moved posts (migration 0009's move trigger). Articles are not merged: revise them instead.
import { z } from 'zod';
import type { Topic } from '../../store/types.ts';
import { categoryOf, findTopic } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { topicRef } from '../fields.ts';
import { changed, loadTopic, onTopic, type ModeratorWrite } from './moderator-write.ts';

const contract = z.object({ ...onTopic, into: topicRef });

type Loaded = { topic: Topic; target: Topic; articles: boolean };

export const topicMerge: ModeratorWrite<typeof contract, Loaded> = {
  action: 'merge',
  what: 'merge topics',
  contract,
  load: async (tx, community, input) => {
    const scope = tx.community(community.id);
    const topic = await loadTopic(tx, community, input.topic);
    const target = await findTopic(scope, input.into);
    const kinds = await Promise.all(
      [topic, target].map(async (t) => (await categoryOf(scope, t)).kind),
    );
    return { topic, target, articles: kinds.includes('knowledge_base') };
  },
  apply: async (tx, community, _input, { topic, target, articles }) => {
    if (target.id === topic.id)
      throw new DomainError(
        'invalid_argument',
        'A topic cannot be merged into itself: name another topic in "into".',
      );
    if (articles)
      throw new DomainError(
        'invalid_argument',
        'Knowledge-base articles are not merged: revise the article instead.',
      );
    if (target.moderation.deleted || target.moderation.mergedInto)
      throw new DomainError(
        'conflict',
        `"${target.title}" is ${target.moderation.deleted ? 'deleted' : 'merged into another topic'}: merge into a live topic.`,
      );
    const scope = tx.community(community.id);
    const moved = await scope.moderatorActions.mergePosts(topic.id, target.id);
    await scope.topics.update(topic.id, { status: 'closed' });
    await scope.moderatorActions.setTopic(topic.id, { mergedInto: target.id, pinnedAt: null });
    return {
      topic: await changed(tx, community, topic.id),
      detail: `into: ${target.title} (${moved} post${moved === 1 ? '' : 's'} moved)`,
    };
  },
};
