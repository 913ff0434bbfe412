// topic.duplicate: closes a topic as a duplicate of another of the same community. Both pages link
// to each other, and the duplicate's title and question join the original's search profile as
// "asked as" (src/search/profiles.ts), so the next asker using those words finds the original.
import { z } from 'zod';
import type { Topic } from '../../store/types.ts';
import { findTopic } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { topicRef } from '../fields.ts';
import {
  changed,
  liveTopicNow,
  loadTopic,
  moderatorWrite,
  onTopic,
  topicNow,
} from './moderator-write.ts';

const contract = z.object({ ...onTopic, of: topicRef });

export const topicDuplicate = moderatorWrite({
  action: 'duplicate',
  what: 'close topics as duplicates',
  contract,
  load: async (scope, _community, input): Promise<{ topic: Topic; original: Topic }> => ({
    topic: await loadTopic(scope, input.topic),
    original: await findTopic(scope, input.of),
  }),
  apply: async ({ scope }, _input, loaded) => {
    if (loaded.original.id === loaded.topic.id)
      throw new DomainError(
        'invalid_argument',
        'A topic cannot duplicate itself: name another topic in "of".',
      );
    // Both as they are now: two moderators must not make two topics duplicates of each other.
    const topic = await liveTopicNow(scope, loaded.topic);
    const original = await topicNow(scope, loaded.original);
    if (original.moderation.deleted || original.moderation.mergedInto)
      throw new DomainError(
        'conflict',
        `"${original.title}" is ${original.moderation.deleted ? 'deleted' : 'merged into another topic'}: name a live topic in "of".`,
      );
    if (original.moderation.duplicateOf)
      throw new DomainError(
        'conflict',
        `"${original.title}" is itself closed as a duplicate: name the topic it duplicates (${original.moderation.duplicateOf}) in "of".`,
      );
    if (topic.status === 'closed' && topic.moderation.duplicateOf === original.id)
      return { topic, unchanged: true };
    await scope.topics.update(topic.id, { status: 'closed' });
    return {
      topic: await changed(scope.moderatorActions.setTopic(topic.id, { duplicateOf: original.id })),
      detail: `of: ${original.title}`,
    };
  },
});
