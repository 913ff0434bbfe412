// What a new topic or reply leaves beside its post: the environment its author ran in, and the
// posts it cites as sources (./record.ts), in the write's transaction (an approved write's too).
import type { Environment } from '../../store/votes.ts';
import { authorOf } from '../authorization.ts';
import type { PostView } from '../views.ts';
import type { WriteStep } from '../writes/use-case.ts';
import { ownerOf } from './owners.ts';
import { citeSources, recordPostEnvironment } from './record.ts';

export async function recordKnowledge(
  step: WriteStep,
  post: PostView,
  payload: unknown,
): Promise<void> {
  const { environment, sources } = (payload ?? {}) as {
    environment?: Environment;
    sources?: string[];
  };
  const { tx, config, community, actor } = step;
  const target = { id: post.id, topicId: post.topicId };
  await recordPostEnvironment(tx, community, target, environment);
  if (!sources?.length) return;
  const by = authorOf(actor);
  await citeSources(tx, config, community, sources, {
    citing: { kind: 'post', postId: post.id, key: `post:${post.id}` },
    by: { kind: by.kind, id: by.id, name: by.name },
    owner: await ownerOf(tx, community, by),
  });
}
