// topic.duplicate: closes a topic as a duplicate of another of the same community. Both pages link
// to each other, and the duplicate's title and question join the original's search profile as
// "asked as" (src/search/profiles.ts), so the next asker using those words finds the original.
import { z } from 'zod';
import type { Topic } from '../../store/types.ts';
import { findTopic } from '../content-lookup.ts';
import { DomainError } from '../errors.ts';
import { topicRef } from '../fields.ts';
import { changed, loadTopic, onTopic, type ModeratorWrite } from './moderator-write.ts';

const contract = z.object({ ...onTopic, of: topicRef });

type Loaded = { topic: Topic; original: Topic };

export const topicDuplicate: ModeratorWrite<typeof contract, Loaded> = {
  action: 'duplicate',
  what: 'close topics as duplicates',
  contract,
  load: async (tx, community, input) => ({
    topic: await loadTopic(tx, community, input.topic),
    original: await findTopic(tx.community(community.id), input.of),
  }),
  apply: async (tx, community, _input, { topic, original }) => {
    if (original.id === topic.id)
      throw new DomainError(
        'invalid_argument',
        'A topic cannot duplicate itself: name another topic in "of".',
      );
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
    const scope = tx.community(community.id);
    await scope.topics.update(topic.id, { status: 'closed' });
    await scope.moderatorActions.setTopic(topic.id, { duplicateOf: original.id });
    return { topic: await changed(tx, community, topic.id), detail: `of: ${original.title}` };
  },
};
