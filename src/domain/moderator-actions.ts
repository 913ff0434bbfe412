// Moderators' actions on topics and posts (close, reopen, lock, unlock, pin, unpin, delete,
// restore, delete and restore a post, move, tags, duplicate, merge), each one use case of ./writes/
// (their shared steps: ./writes/moderator-write.ts) run by the one write runner, and the moderation
// log they leave.
import type { ModerationEntry } from '../store/moderator-actions.ts';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { requireModerator } from './authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from './cursor.ts';
import type { ModerationResult, ModeratorUseCase } from './writes/moderator-write.ts';
import type { RunOptions, WriteRunner } from './writes/runner.ts';
import { postDelete, postRestore } from './writes/post-delete.ts';
import { topicClose, topicReopen } from './writes/topic-close.ts';
import { topicDelete, topicRestore } from './writes/topic-delete.ts';
import { topicDuplicate } from './writes/topic-duplicate.ts';
import { topicLock, topicUnlock } from './writes/topic-lock.ts';
import { topicMerge } from './writes/topic-merge.ts';
import { topicMove } from './writes/topic-move.ts';
import { topicPin, topicUnpin } from './writes/topic-pin.ts';
import { topicTags } from './writes/topic-tags.ts';

export type { ModerationResult } from './writes/moderator-write.ts';

/** Every moderator action by its name (the log's and the webhook's `action`). */
export const MODERATOR_ACTIONS = {
  close: topicClose,
  reopen: topicReopen,
  lock: topicLock,
  unlock: topicUnlock,
  pin: topicPin,
  unpin: topicUnpin,
  delete: topicDelete,
  restore: topicRestore,
  delete_post: postDelete,
  restore_post: postRestore,
  move: topicMove,
  tags: topicTags,
  duplicate: topicDuplicate,
  merge: topicMerge,
} as const;
export type ModeratorAction = keyof typeof MODERATOR_ACTIONS;

export class ModerationService {
  constructor(
    private readonly store: Store,
    private readonly runner: WriteRunner,
  ) {}

  /**
   * Runs one moderator action (the payload is checked against the action's contract); its audit
   * entry is `options.audit`, the call's, when given.
   */
  async act(
    action: ModeratorAction,
    actor: Actor,
    community: Community,
    payload: unknown,
    options?: RunOptions,
  ): Promise<ModerationResult> {
    const useCase = MODERATOR_ACTIONS[action] as ModeratorUseCase<unknown, unknown>;
    return this.runner.run(useCase, actor, community, payload, options);
  }

  /** One page of the moderation log, newest first: moderators (and agents that moderate) only. */
  async log(
    actor: Actor,
    community: Community,
    page: { cursor?: string; limit: number },
  ): Promise<{ entries: ModerationEntry[]; nextCursor: string | null }> {
    await requireModerator(this.store, actor, community, 'read the moderation log');
    const listing = 'moderation-log';
    const result = await this.store.community(community.id).moderatorActions.listLog({
      after: decodeCursor(listing, page.cursor, CURSOR_SHAPES.byTime),
      limit: page.limit,
    });
    return {
      entries: result.items,
      nextCursor: result.next ? encodeCursor(listing, result.next) : null,
    };
  }
}
