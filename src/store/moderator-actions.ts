// Moderator actions' records: a topic's moderation state and a post's soft delete, a merge of one
// topic's posts into another, the pinned topics, the duplicates of a topic, and the moderation log
// (one entry per action, newest first). Reached through `store.community(id).moderation`.
import type { AuthorKind, Deletion, Keyset, Page, Topic } from './types.ts';

/** What a moderator changes on a topic: each field given is set (null clears it). */
export type TopicModerationPatch = Partial<{
  lockedAt: string | null;
  pinnedAt: string | null;
  deleted: Deletion | null;
  duplicateOf: string | null;
  mergedInto: string | null;
}>;

export type NewModerationEntry = {
  /** The action: "close", "lock", "pin", "delete", "restore_post", "duplicate", "merge", … */
  action: string;
  actor: { kind: AuthorKind; id: string | null; name: string };
  topicId?: string | null;
  postId?: string | null;
  /** The target's title as it was (the log still reads after a delete or a merge). */
  targetTitle?: string;
  /** What else the action named ("into: <title>", "tags: a, b"). */
  detail?: string;
  reason?: string;
  createdAt?: string;
};

export type ModerationEntry = Required<Omit<NewModerationEntry, 'createdAt'>> & {
  id: string;
  communityId: string;
  topicId: string | null;
  postId: string | null;
  createdAt: string;
};

export interface ModeratorActionsRepository {
  /** Sets the fields given; undefined when the topic is not in this community. */
  setTopic(topicId: string, patch: TopicModerationPatch): Promise<Topic | undefined>;
  /** Soft-deletes (a Deletion) or restores (null) a post; false when it is not in this community. */
  setPostDeleted(postId: string, deleted: Deletion | null): Promise<boolean>;
  /**
   * Moves every post of `sourceId` to the end of `targetId` (in order, positions renumbered) and
   * updates both topics' counters; returns how many moved.
   */
  mergePosts(sourceId: string, targetId: string): Promise<number>;
  /** Pinned topics that are not deleted, most recently pinned first (optionally of one category). */
  pinned(categoryId: string | undefined, limit: number): Promise<Topic[]>;
  /** The live topics closed as duplicates of this one. */
  duplicatesOf(topicId: string): Promise<{ id: string; slug: string; title: string }[]>;
  log(entry: NewModerationEntry): Promise<ModerationEntry>;
  /** The log newest first. */
  listLog(page: { after?: Keyset; limit: number }): Promise<Page<ModerationEntry, Keyset>>;
}
