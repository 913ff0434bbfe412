// The storage contract of a community's self-moderation (migration 0091): flags on posts, hidden
// posts, sanctions on people and agents, and the community's moderation settings. Reached through
// `store.community(id).moderation`, so every query carries the community's id.
import type { AuthorRef } from './types.ts';

export type FlagStatus = 'open' | 'dismissed' | 'upheld';

export type FlagRecord = {
  id: string;
  postId: string;
  topicId: string;
  flagger: { kind: 'person' | 'agent'; id: string; name: string };
  reason: string;
  note: string | null;
  /** The flagger was trusted when flagging: only trusted flags count toward hiding the post. */
  trusted: boolean;
  status: FlagStatus;
  createdAt: string;
  decidedAt: string | null;
  decidedByName: string | null;
};

export type NewFlag = Omit<
  FlagRecord,
  'id' | 'status' | 'createdAt' | 'decidedAt' | 'decidedByName'
> & {
  createdAt?: string;
};

export type HiddenPost = {
  postId: string;
  topicId: string;
  /** The post's position: 1 is the question, and hides its topic. */
  position: number;
  /** 'flags': enough trusted flags hid it; 'moderator': a moderator did. */
  cause: 'flags' | 'moderator';
  note: string | null;
  byName: string;
  hiddenAt: string;
};

export type SanctionMode = 'suspended' | 'silenced';

export type Sanction = {
  subject: { kind: 'person' | 'agent'; id: string; name: string };
  mode: SanctionMode;
  reason: string;
  endsAt: string;
  byName: string;
  createdAt: string;
};

export interface ModerationRepository {
  /** Adds the flag unless this flagger already flagged this post: `added` says which. */
  addFlag(input: NewFlag): Promise<{ added: boolean; flag: FlagRecord }>;
  /** The post's flags, oldest first (all statuses unless one is given). */
  flagsOf(postId: string, status?: FlagStatus): Promise<FlagRecord[]>;
  /** How many open flags the post has (only those of trusted flaggers with `trustedOnly`). */
  openFlagCount(postId: string, trustedOnly: boolean): Promise<number>;
  /** Open flags of the community, oldest first, at most `limit`. */
  openFlags(limit: number): Promise<FlagRecord[]>;
  /** Settles the post's open flags (a moderator's decision); returns how many. */
  settleFlags(
    postId: string,
    status: 'dismissed' | 'upheld',
    byName: string,
    at?: string,
  ): Promise<number>;
  /** How many flags against posts by this author were upheld since `since`. */
  upheldAgainst(author: AuthorRef, since: string): Promise<number>;
  /** How many of this author's posts are accepted answers (a trust input). */
  acceptedAnswersOf(author: AuthorRef): Promise<number>;
  /** How many posts this author wrote here. */
  postsBy(author: AuthorRef): Promise<number>;
  /** How many posts this author wrote here since `since`, and when the oldest of them was written. */
  postsSince(author: AuthorRef, since: string): Promise<{ count: number; oldestAt: string | null }>;
  /** Hides the post; false when it was hidden already (the first cause stays). */
  hide(input: Omit<HiddenPost, 'hiddenAt'> & { hiddenAt?: string }): Promise<boolean>;
  /** Shows the post again; false when it was not hidden. */
  unhide(postId: string): Promise<boolean>;
  /** The hidden posts of one topic. */
  hiddenInTopic(topicId: string): Promise<HiddenPost[]>;
  /** The hidden posts of these topics (search results). */
  hiddenInTopics(topicIds: string[]): Promise<HiddenPost[]>;
  /** Which of these posts are hidden. */
  hiddenAmong(postIds: string[]): Promise<HiddenPost[]>;
  /** Sets (or replaces) the sanction on one person or agent. */
  setSanction(s: Sanction): Promise<void>;
  getSanction(kind: 'person' | 'agent', id: string): Promise<Sanction | undefined>;
  /** Lifts it; false when there was none. */
  clearSanction(kind: 'person' | 'agent', id: string): Promise<boolean>;
  /** Every sanction that has not ended by `now`, soonest end first. */
  listSanctions(now: string): Promise<Sanction[]>;
  /** Keeps why a write was queued (the policy's named reason). */
  noteQueued(approvalId: string, reason: string): Promise<void>;
  /** Why each of these approvals was queued, by approval id (older ones have none). */
  queuedReasons(approvalIds: string[]): Promise<Map<string, string>>;
  /** The stored settings document (the domain owns its shape and defaults). */
  getSettings(): Promise<unknown>;
  setSettings(settings: unknown): Promise<void>;
}
