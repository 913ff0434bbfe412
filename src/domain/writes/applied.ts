// A write its caller needs applied at once (the demo, the mail importer, benches and test fixtures,
// writing as the system or as a person or agent they set up): it goes through the one write runner
// (./write-service.ts) like every other write, with its payload typed by its kind's contract, and
// what it wrote comes back typed by kind. A write the policy queued instead is an error here: the
// system's writes are never queued, and a caller that expected another actor's write to apply was
// wrong about that actor's policy.
import type { z } from 'zod';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import type { ArticleResult } from '../articles.ts';
import type {
  createTopicSchema,
  markSolutionSchema,
  replySchema,
  upsertArticleSchema,
} from '../content-inputs.ts';
import type { MentionReport } from '../notifications/produce.ts';
import type { PostView, TopicView } from '../views.ts';
import type { WriteKind } from '../vocabulary.ts';
import type { WriteOptions, WriteResult, WriteService } from './write-service.ts';

/** The contract of each kind (./topic-create.ts, ./post-create.ts, …). */
type Contracts = {
  'topic.create': typeof createTopicSchema;
  'post.create': typeof replySchema;
  'solution.mark': typeof markSolutionSchema;
  'article.write': typeof upsertArticleSchema;
};

/** What a payload of each kind may hold, as its author gives it (before defaults). */
export type WriteInput<K extends WriteKind> = z.input<Contracts[K]>;

/** What each kind of write returns once applied (a new topic routed to a knowledge base: an article). */
export type AppliedContent = {
  'topic.create': { topic: TopicView; post: PostView; mentions?: MentionReport };
  'post.create': { post: PostView; mentions?: MentionReport };
  'solution.mark': { topic: TopicView };
  'article.write': ArticleResult;
};

/** The fields each kind's applied result always has. */
const WRITTEN: { [K in WriteKind]: readonly (keyof AppliedContent[K])[] } = {
  'topic.create': ['topic', 'post'],
  'post.create': ['post'],
  'solution.mark': ['topic'],
  'article.write': ['topic', 'post', 'revision', 'created'],
};

/** Runs the write through the runner and returns what it wrote; throws when it was queued instead. */
export async function writeApplied<K extends WriteKind>(
  writes: Pick<WriteService, 'execute'>,
  actor: Actor,
  community: Community,
  kind: K,
  payload: WriteInput<K>,
  options?: WriteOptions,
): Promise<AppliedContent[K]> {
  return appliedContent(kind, await writes.execute(actor, community, kind, payload, options));
}

/** What an applied write of `kind` wrote; an Error naming the approval when it waits for one. */
export function appliedContent<K extends WriteKind>(
  kind: K,
  result: WriteResult,
): AppliedContent[K] {
  if (result.status !== 'applied') {
    throw new Error(
      `The ${kind} write was queued for approval ${result.approval_id} (${result.reason ?? 'no reason recorded'}) instead of applied: ${result.message}`,
    );
  }
  const written = result.result as Partial<AppliedContent[K]>;
  const missing = WRITTEN[kind].filter((field) => written[field] === undefined);
  if (missing.length) {
    throw new Error(
      `The ${kind} write applied without its ${missing.map(String).join(', ')}: the runner returned ${JSON.stringify(written)}.`,
    );
  }
  return written as AppliedContent[K];
}
