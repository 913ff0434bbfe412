// watch.set: the person's level (watch / track / normal / mute) on one topic or one category;
// "default" clears what they set (a topic then follows its category, a category is normal).
import { z } from 'zod';
import type { Category, Topic } from '../../store/types.ts';
import { findCategory, findTopic } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { topicRef } from '../fields.ts';
import { WATCH_LEVELS } from '../notifications/vocabulary.ts';
import type { PersonalWrite } from './personal-write.ts';

const contract = z.object({
  topic: topicRef.optional(),
  category: z.string().trim().min(1).max(100).optional(),
  level: z.enum([...WATCH_LEVELS, 'default']),
});

type Target = { kind: 'topic'; row: Topic } | { kind: 'category'; row: Category };

export const watchLevelSet: PersonalWrite<
  typeof contract,
  Target,
  { target: 'topic' | 'category'; id: string; level: string }
> = {
  kind: 'watch.set',
  contract,
  load: async (store, community, input) => {
    if (Boolean(input.topic) === Boolean(input.category))
      throw new DomainError('invalid_argument', 'Name either a "topic" or a "category" (one).');
    const scope = store.community(community.id);
    return input.topic
      ? { kind: 'topic', row: await findTopic(scope, input.topic) }
      : { kind: 'category', row: await findCategory(scope, community, input.category!) };
  },
  apply: async (tx, person, community, input, target) => {
    await tx
      .community(community.id)
      .notifications.setLevel(
        person.personId,
        target.kind,
        target.row.id,
        input.level === 'default' ? null : input.level,
      );
    return { target: target.kind, id: target.row.id, level: input.level };
  },
};
