// The notification records and their repositories: a community's notifications, watch levels and
// e-mail preferences (reached through `store.community(id).notifications` like all its content),
// and the mail side's cross-community view of notifications still to be mailed.
import type { AuthorKind, Keyset, Page } from './types.ts';

/** pending → sent (mailed), skipped (no mail), digest (waiting for a daily or weekly digest). */
export type NotificationEmailState = 'pending' | 'sent' | 'skipped' | 'digest';
export type WatchTarget = 'topic' | 'category';

export type NewNotification = {
  recipientId: string;
  kind: string;
  /** What caused it ("post:<id>", …): one notification per recipient and cause. */
  sourceKey: string;
  topicId?: string | null;
  postId?: string | null;
  approvalId?: string | null;
  actor: { kind: AuthorKind; id: string | null; name: string };
  title: string;
  reason?: string | null;
  createdAt?: string;
};

export type NotificationRecord = Omit<
  Required<NewNotification>,
  'createdAt' | 'topicId' | 'postId' | 'approvalId' | 'reason'
> & {
  id: string;
  communityId: string;
  topicId: string | null;
  postId: string | null;
  approvalId: string | null;
  reason: string | null;
  createdAt: string;
  readAt: string | null;
  emailState: NotificationEmailState;
  emailedAt: string | null;
};

/** Where a notification leads and the start of its post (null: none, or no longer shown). */
export type NotificationPlace = { topicSlug: string | null; excerpt: string | null };
export type GlancedNotification = NotificationRecord & NotificationPlace;

export type LevelRecord = {
  personId: string;
  targetKind: WatchTarget;
  targetId: string;
  level: string;
};

export interface NotificationRepository {
  /** Adds the notifications; one already recorded for the same recipient and cause is kept. */
  add(rows: NewNotification[]): Promise<number>;
  /** The recipient's notifications, newest first. */
  list(
    recipientId: string,
    page: { after?: Keyset; limit: number; unreadOnly?: boolean },
  ): Promise<Page<NotificationRecord, Keyset>>;
  unreadCount(recipientId: string): Promise<number>;
  /** Marks the given ones (all when `ids` is null) read; returns how many changed. */
  markRead(recipientId: string, ids: string[] | null, at: string): Promise<number>;
  /** The bell: the newest `limit` with their places, and the unread count, in one statement. */
  glance(
    recipientId: string,
    limit: number,
  ): Promise<{ items: GlancedNotification[]; unread: number }>;
  /** The places of these notifications of the recipient, in one statement. */
  places(recipientId: string, ids: string[]): Promise<Map<string, NotificationPlace>>;
  /** Marks the recipient's unread notifications about one topic read (they opened it); how many. */
  readOnTopic(recipientId: string, topicId: string, at: string): Promise<number>;

  /** One person's level on a topic or category (undefined: never set). */
  level(personId: string, target: WatchTarget, targetId: string): Promise<string | undefined>;
  /** Sets (or, with null, clears) a level. */
  setLevel(
    personId: string,
    target: WatchTarget,
    targetId: string,
    level: string | null,
  ): Promise<void>;
  /** Sets a level only where the person has none yet (asking watches, replying tracks). */
  setLevelIfUnset(
    personId: string,
    target: WatchTarget,
    targetId: string,
    level: string,
  ): Promise<void>;
  /** Everyone's levels on these targets. */
  levelsOn(targets: { kind: WatchTarget; id: string }[]): Promise<LevelRecord[]>;
  /** One person's levels on all targets of a kind. */
  levelsOf(personId: string, target: WatchTarget): Promise<LevelRecord[]>;

  /** The person's e-mail preference here (undefined: never set). */
  emailPreference(personId: string): Promise<string | undefined>;
  setEmailPreference(personId: string, email: string): Promise<void>;
  /** Of `personIds`, those who are members of the community. */
  members(personIds: string[]): Promise<Set<string>>;
  /**
   * The recipient's notifications waiting for a digest (`digest`) written before `before`, oldest
   * first, each with its topic's slug (null when it has none or the topic is gone).
   */
  waitingForDigest(recipientId: string, before: string, limit: number): Promise<DigestItem[]>;
}

export type DigestItem = NotificationRecord & { topicSlug: string | null };

/** Whose digest is due: a recipient in a community with notifications waiting from before it. */
export type DueDigest = { communityId: string; recipientId: string; waiting: number };

/** The mail side's view: notifications not mailed yet, over every community, oldest first. */
export interface NotificationMailQueue {
  pending(limit: number): Promise<NotificationRecord[]>;
  /**
   * Recipients with notifications waiting for a digest from before their period began: `weekStart`
   * for those whose preference there is weekly, `dayStart` for everyone else.
   */
  digestsDue(input: { dayStart: string; weekStart: string; limit: number }): Promise<DueDigest[]>;
  /** digest → sent (or skipped) for these ids; returns how many were still waiting. */
  settleDigest(ids: string[], at: string, state?: 'sent' | 'skipped'): Promise<number>;
  /** pending → sent | skipped | digest; false when it was no longer pending (another sender got it). */
  settle(
    id: string,
    state: Exclude<NotificationEmailState, 'pending'>,
    at: string,
  ): Promise<boolean>;
}
