// topic.move: to another category of the same kind (a question stays a question, an article an
// article). Search follows through the index's category facts (migration 0023's topic triggers).
import { z } from 'zod';
import type { Category, Topic } from '../../store/types.ts';
import { categoryOf, findCategory } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { categoryRef } from '../fields.ts';
import { changed, liveTopicNow, loadTopic, moderatorWrite, onTopic } from './moderator-write.ts';

const contract = z.object({ ...onTopic, category: categoryRef });

export const topicMove = moderatorWrite({
  action: 'move',
  what: 'move topics',
  contract,
  load: async (scope, community, input): Promise<{ topic: Topic; to: Category }> => ({
    topic: await loadTopic(scope, input.topic),
    to: await findCategory(scope, community, input.category),
  }),
  apply: async ({ scope }, _input, loaded) => {
    const { to } = loaded;
    // Where it is now (another moderator may have moved it since it was loaded).
    const topic = await liveTopicNow(scope, loaded.topic);
    const from = await categoryOf(scope, topic);
    if (from.id === to.id) return { topic, unchanged: true };
    if (from.kind !== to.kind)
      throw new DomainError(
        'invalid_argument',
        `"${to.slug}" is a ${to.kind} category and "${topic.title}" is in a ${from.kind} one: move it to a category of the same kind.`,
      );
    return {
      topic: await changed(scope.topics.update(topic.id, { categoryId: to.id })),
      detail: `from ${from.name} to ${to.name}`,
    };
  },
});
