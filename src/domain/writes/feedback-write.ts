// The shape of feedback on a post (a vote, a "this worked" report) and its runner: contract (the
// input's schema) → load the post and its topic once → policy, with a named reason ("vote",
// "outcome"; refused with what to do) → one transaction {the row and the post's signals, the
// webhook outbox, notifications} → the call's audit entry (the pipeline's, given the ids). Nothing
// is queued for approval: feedback changes no content. Setting the same value again is a no-op,
// so a retry writes nothing twice (no idempotency key needed). Each kind is a file beside this one.
import type { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community, Post, Topic } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { requireWrite } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { parse } from '../validate.ts';

/** The post feedback is about, with its topic. */
export type FeedbackTarget = { post: Post; topic: Topic };

export type FeedbackWrite<S extends z.ZodType, O> = {
  /** The audit's name of the write ("post.vote"). */
  kind: string;
  contract: S;
  /** The post id in the input. */
  postOf(input: z.output<S>): string;
  /** Refuses (DomainError saying what to do) or names why the write applies. */
  policy(
    store: Store,
    actor: Actor,
    community: Community,
    target: FeedbackTarget,
    input: z.output<S>,
  ): Promise<string>;
  apply(
    tx: Store,
    deps: { config: Config; actor: Actor; community: Community },
    target: FeedbackTarget,
    input: z.output<S>,
  ): Promise<O>;
};

/** Runs one feedback write for `actor`. */
export async function runFeedbackWrite<S extends z.ZodType, O>(
  deps: { store: Store; config: Config },
  actor: Actor,
  community: Community,
  write: FeedbackWrite<S, O>,
  payload: unknown,
  audit?: { communityId: string | null; targets: Record<string, string | undefined> },
): Promise<O & { reason: string }> {
  requireWrite(actor, community);
  const input = parse(write.contract, payload);
  const scope = deps.store.community(community.id);
  const postId = write.postOf(input);
  const post = await scope.posts.getById(postId);
  const topic = post && (await scope.topics.getById(post.topicId));
  if (!post || !topic)
    throw new DomainError(
      'not_found',
      `No post "${postId}" in "${community.slug}". Post ids are in get_topic results (posts[].id) and in search results (source_id of a post).`,
    );
  const target = { post, topic };
  const reason = await write.policy(deps.store, actor, community, target, input);
  const out = await deps.store.transaction((tx) =>
    write.apply(tx, { config: deps.config, actor, community }, target, input),
  );
  if (audit) {
    audit.communityId = community.id;
    Object.assign(audit.targets, { write: write.kind, topic_id: topic.id, post_id: post.id });
  }
  return { ...out, reason };
}
