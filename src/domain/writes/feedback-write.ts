// Feedback on a post (a vote, a "this worked" report) as use cases of the one runner (./runner.ts):
// who may (write access here) → contract (the input's schema) → load the post and its topic, once →
// policy, with a named reason ("vote", "outcome"; refused with what to do) → the runner's
// transaction {the row and the post's signals, the webhook outbox, notifications, the audit entry}.
// Nothing is queued for approval: feedback changes no content. Setting the same value again is a
// no-op, so a retry writes nothing twice (no idempotency key needed). Each kind is a file beside
// this one.
import type { z } from 'zod';
import type { Post, Topic } from '../../store/types.ts';
import { requireWrite } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import type { UseCase, WriteContext, WriteStep } from './use-case.ts';

/** The post feedback is about, with its topic. */
export type FeedbackTarget = { post: Post; topic: Topic };

/** What a feedback write answers: its own result, the topic it touched, and its reason. */
export type Feedback<O> = O & { topic_id: string; reason: string };

/** One kind of feedback. */
export type FeedbackKind<I extends { post: string }, O extends { post_id: string }> = {
  /** The audit's name of the write ("post.vote"). */
  name: string;
  contract: z.ZodType<I>;
  /** Refuses (DomainError saying what to do) or names why the write applies. */
  policy(ctx: WriteContext, target: FeedbackTarget, input: I): Promise<string>;
  apply(step: WriteStep, target: FeedbackTarget, input: I): Promise<O>;
};

export type FeedbackUseCase<I, O> = UseCase<I, FeedbackTarget, Feedback<O>>;

/** The post `id` and its topic, or not_found saying where post ids are. */
async function feedbackTarget(
  { store, community }: WriteContext,
  id: string,
): Promise<FeedbackTarget> {
  const scope = store.community(community.id);
  const post = await scope.posts.getById(id);
  const topic = post && (await scope.topics.getById(post.topicId));
  if (!post || !topic)
    throw new DomainError(
      'not_found',
      `No post "${id}" in "${community.slug}". Post ids are in get_topic results (posts[].id) and in search results (source_id of a post).`,
    );
  return { post, topic };
}

/** The use case of a feedback kind. */
export function feedbackWrite<I extends { post: string }, O extends { post_id: string }>(
  kind: FeedbackKind<I, O>,
): FeedbackUseCase<I, O> {
  return {
    name: kind.name,
    contract: kind.contract,
    guard: async (ctx) => {
      requireWrite(ctx.actor, ctx.community);
    },
    load: (ctx, input) => feedbackTarget(ctx, input.post),
    policy: async (ctx, input, target) => ({
      mode: 'apply',
      reason: await kind.policy(ctx, target, input),
    }),
    apply: async (step, input, target, reason) => ({
      ...(await kind.apply(step, target, input)),
      topic_id: target.topic.id,
      reason,
    }),
    audit: (out) => ({
      targets: { write: kind.name, topic_id: out.topic_id, post_id: out.post_id },
    }),
  };
}
