// topic.move: to another category of the same kind (a question stays a question, an article an
// article). Search follows through the index's category facts (migration 0023's topic triggers).
import { z } from 'zod';
import type { Category, Topic } from '../../store/types.ts';
import { categoryOf, findCategory } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { categoryRef } from '../fields.ts';
import { changed, loadTopic, onTopic, type ModeratorWrite } from './moderator-write.ts';

const contract = z.object({ ...onTopic, category: categoryRef });

type Loaded = { topic: Topic; from: Category; to: Category };

export const topicMove: ModeratorWrite<typeof contract, Loaded> = {
  action: 'move',
  what: 'move topics',
  contract,
  load: async (tx, community, input) => {
    const scope = tx.community(community.id);
    const topic = await loadTopic(tx, community, input.topic);
    return {
      topic,
      from: await categoryOf(scope, topic),
      to: await findCategory(scope, community, input.category),
    };
  },
  apply: async (tx, community, _input, { topic, from, to }) => {
    if (from.id === to.id) return { topic, unchanged: true };
    if (from.kind !== to.kind)
      throw new DomainError(
        'invalid_argument',
        `"${to.slug}" is a ${to.kind} category and "${topic.title}" is in a ${from.kind} one: move it to a category of the same kind.`,
      );
    await tx.community(community.id).topics.update(topic.id, { categoryId: to.id });
    return {
      topic: await changed(tx, community, topic.id),
      detail: `from ${from.name} to ${to.name}`,
    };
  },
};
