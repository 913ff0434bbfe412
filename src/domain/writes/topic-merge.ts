// topic.merge: moves every post of a topic to the end of another (in order; its question becomes a
// reply there) and leaves the source closed, empty, as a pointer to the target. Search follows the
// moved posts (migration 0009's move trigger). Articles are not merged: revise them instead.
import { z } from 'zod';
import type { Topic } from '../../store/types.ts';
import { categoryOf, findTopic } from '../content-lookup.ts';
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

const contract = z.object({ ...onTopic, into: topicRef });

export const topicMerge = moderatorWrite({
  action: 'merge',
  what: 'merge topics',
  contract,
  load: async (scope, _community, input): Promise<{ topic: Topic; target: Topic }> => ({
    topic: await loadTopic(scope, input.topic),
    target: await findTopic(scope, input.into),
  }),
  apply: async ({ scope }, _input, loaded) => {
    if (loaded.target.id === loaded.topic.id)
      throw new DomainError(
        'invalid_argument',
        'A topic cannot be merged into itself: name another topic in "into".',
      );
    // Both as they are now: of two moderators merging these two topics into each other at once,
    // the second finds the first's pointer and is refused.
    const topic = await liveTopicNow(scope, loaded.topic);
    const target = await topicNow(scope, loaded.target);
    const kinds = await Promise.all(
      [topic, target].map(async (t) => (await categoryOf(scope, t)).kind),
    );
    if (kinds.includes('knowledge_base'))
      throw new DomainError(
        'invalid_argument',
        'Knowledge-base articles are not merged: revise the article instead.',
      );
    if (target.moderation.deleted || target.moderation.mergedInto)
      throw new DomainError(
        'conflict',
        `"${target.title}" is ${target.moderation.deleted ? 'deleted' : 'merged into another topic'}: merge into a live topic.`,
      );
    const moved = await scope.moderatorActions.mergePosts(topic.id, target.id);
    await scope.topics.update(topic.id, { status: 'closed' });
    return {
      topic: await changed(
        scope.moderatorActions.setTopic(topic.id, { mergedInto: target.id, pinnedAt: null }),
      ),
      detail: `into: ${target.title} (${moved} post${moved === 1 ? '' : 's'} moved)`,
    };
  },
});
