// Changing what was posted: accepting a reply as a topic's solution (the asker or a moderator), and
// how a written body is rendered. Withdrawing the acceptance and editing a post are use cases of
// their own (./writes/solution-clear.ts, ./writes/post-edit.ts).
import type { z } from 'zod';
import type { Config } from '../config/config.ts';
import type { Community, Rendered } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { requireCanMarkSolution } from './authorization.ts';
import type { markSolutionSchema } from './content-inputs.ts';
import {
  categoryOf,
  type ContentContext,
  findTopic,
  type Loaded,
  rowsOn,
} from './content-lookup.ts';
import { DomainError } from './errors.ts';
import { recordWebhookEvent } from './webhooks/outbox.ts';
import { renderBody } from './rendering.ts';
import { mentionLinks } from './notifications/mentions.ts';
import { imageLinks } from './uploads/links.ts';
import { postView, topicView, type TopicView } from './views.ts';

export async function markSolution(
  ctx: ContentContext,
  actor: Actor,
  community: Community,
  data: z.output<typeof markSolutionSchema>,
  loaded: Loaded,
): Promise<TopicView> {
  const { topic, category, postId } = await rowsOn(ctx.store, async (tx) => {
    const scope = tx.community(community.id);
    const topic = loaded.topic ?? (await findTopic(scope, data.topic));
    await requireCanMarkSolution(tx, actor, community, topic);
    const post = await scope.posts.getById(data.post);
    if (!post || post.topicId !== topic.id) {
      throw new DomainError(
        'not_found',
        `No post "${data.post}" in the topic "${topic.title}". Use a post id from get_topic of this topic.`,
      );
    }
    if (post.position === 1) {
      throw new DomainError(
        'invalid_argument',
        'The first post is the question itself; accept one of the replies as the solution.',
      );
    }
    const updated = (await scope.topics.update(topic.id, { solutionPostId: post.id }))!;
    const category = await categoryOf(scope, topic);
    await recordWebhookEvent(tx, community.id, 'solution.marked', () => ({
      topic: topicView(ctx.config, community, updated, category),
      post: postView(ctx.config, community, updated, post),
    }));
    return { topic: updated, category, postId: post.id };
  });
  ctx.emit({ type: 'solution.marked', communityId: community.id, topicId: topic.id, postId });
  return topicView(ctx.config, community, topic, category);
}

/** A written body's render: its @mentions linked, the community's own uploaded images shown. */
export function renderWritten(
  config: Config,
  community: Community,
  body: string,
  loaded: Pick<Loaded, 'mentions' | 'uploads'>,
): Rendered {
  return renderBody(
    body,
    mentionLinks(config, community, loaded.mentions),
    imageLinks(config, community, loaded.uploads),
  );
}
