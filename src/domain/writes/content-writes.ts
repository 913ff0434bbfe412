// The content writes by kind: the one table the runner's callers (the write service, the approval
// queue) look a kind up in, in place of a switch per step.
import type { WriteKind } from '../vocabulary.ts';
import { articleWrite } from './article-write.ts';
import type { ContentDeps, ContentUseCase } from './content-write.ts';
import { postCreate } from './post-create.ts';
import { solutionMark } from './solution-mark.ts';
import { topicCreate } from './topic-create.ts';

export type ContentWrites = Record<WriteKind, ContentUseCase>;

export function contentWrites(deps: ContentDeps): ContentWrites {
  const article = articleWrite(deps);
  return {
    'topic.create': topicCreate(deps, article),
    'post.create': postCreate(deps),
    'solution.mark': solutionMark(deps),
    'article.write': article,
  };
}

/** How the actor's messages name each kind of write ("Your new topic is queued …"). */
export const NOUN: Record<WriteKind, string> = Object.fromEntries(
  Object.values(contentWrites({})).map((w) => [w.kind, w.noun]),
) as Record<WriteKind, string>;
