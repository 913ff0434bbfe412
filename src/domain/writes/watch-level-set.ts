// watch.set: the person's level (watch / track / normal / mute) on one topic or one category;
// "default" clears what they set (a topic then follows its category, a category is normal).
import { z } from 'zod';
import type { Category, Topic } from '../../store/types.ts';
import { findCategory, findTopic } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { topicRef } from '../fields.ts';
import { WATCH_LEVELS } from '../notifications/vocabulary.ts';
import { personalWrite } from './personal-write.ts';

type Target = { kind: 'topic'; row: Topic } | { kind: 'category'; row: Category };

export const watchLevelSet = personalWrite({
  name: 'watch.set',
  contract: z.object({
    topic: topicRef.optional(),
    category: z.string().trim().min(1).max(100).optional(),
    level: z.enum([...WATCH_LEVELS, 'default']),
  }),
  load: async ({ store, community }, _person, input): Promise<Target> => {
    if (Boolean(input.topic) === Boolean(input.category))
      throw new DomainError('invalid_argument', 'Name either a "topic" or a "category" (one).');
    const scope = store.community(community.id);
    return input.topic
      ? { kind: 'topic', row: await findTopic(scope, input.topic) }
      : { kind: 'category', row: await findCategory(scope, community, input.category!) };
  },
  apply: async (step, person, input, target) => {
    await step.tx
      .community(step.community.id)
      .notifications.setLevel(
        person.personId,
        target.kind,
        target.row.id,
        input.level === 'default' ? null : input.level,
      );
    return { target: target.kind, id: target.row.id, level: input.level };
  },
  targets: (out) => ({ [`${out.target}_id`]: out.id }),
});
