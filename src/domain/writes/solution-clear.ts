// solution.clear: withdraws a topic's accepted answer (the same people as accepting one: the asker,
// a moderator, an agent); the topic is unsolved again. Clearing a topic without one changes nothing.
import { z } from 'zod';
import type { Category, Topic } from '../../store/types.ts';
import { requireCanMarkSolution, requireWrite } from '../authorization.ts';
import { categoryOf, findTopic } from '../content-lookup.ts';
import { topicRef } from '../fields.ts';
import { topicView, type TopicView } from '../views.ts';
import type { UseCase } from './use-case.ts';

const contract = z.object({ topic: topicRef });

export const solutionClear: UseCase<
  z.output<typeof contract>,
  { topic: Topic; category: Category },
  TopicView
> = {
  name: 'solution.clear',
  contract,
  guard: async (ctx) => requireWrite(ctx.actor, ctx.community),
  async load({ store, community }, data) {
    const scope = store.community(community.id);
    const topic = await findTopic(scope, data.topic);
    return { topic, category: await categoryOf(scope, topic) };
  },
  async policy(ctx, _data, { topic }) {
    await requireCanMarkSolution(ctx.store, ctx.actor, ctx.community, topic);
    return { mode: 'apply', reason: 'asker_or_moderator' };
  },
  async apply({ tx, community, config }, _data, { topic, category }) {
    const updated = topic.solutionPostId
      ? ((await tx.community(community.id).topics.update(topic.id, { solutionPostId: null })) ??
        topic)
      : topic;
    return topicView(config, community, updated, category);
  },
  audit: (t) => ({ targets: { topic_id: t.id } }),
};
