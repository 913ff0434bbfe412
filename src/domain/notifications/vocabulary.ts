// The words of notifications: what happened (kinds), how closely a person follows a topic or a
// category (levels), and how often they want e-mail about it (frequencies).

export const NOTIFICATION_KINDS = [
  /** Someone replied to a topic I started. */
  'replied',
  /** A reply linked to (quoted) a post of mine: `…/t/<topic>#post-<id>`. */
  'quoted',
  /** Someone wrote @my-handle. */
  'mentioned',
  /** My reply was accepted as the topic's solution. */
  'solution_accepted',
  /** A topic I watch or track got an accepted answer. */
  'topic_solved',
  /** A new topic in a category I watch. */
  'watched_topic',
  /** A new post in a topic I watch (or in a category I watch). */
  'watched_post',
  /** My queued write was approved and published. */
  'approval_applied',
  /** My queued write was rejected (with the moderator's reason). */
  'approval_rejected',
  /** My queued write was approved but could not be applied (with why). */
  'approval_failed',
  /** Someone reported that an answer in a topic I started or watch did not work (with their note). */
  'answer_failed',
  /** A moderator hid my post (with their note, if any). */
  'post_hidden',
  /** A post I flagged was hidden by a moderator. */
  'flag_upheld',
  /** A moderator dismissed my flag: the post stays. */
  'flag_dismissed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * watch: every new post (and, on a category, every new topic); track: also the accepted answer;
 * normal: only what is addressed to me (replies to my topic, quotes, mentions, my answer accepted);
 * mute: nothing at all about the topic (or the category's topics).
 */
export const WATCH_LEVELS = ['watch', 'track', 'normal', 'mute'] as const;
export type WatchLevel = (typeof WATCH_LEVELS)[number];

export const EMAIL_FREQUENCIES = ['immediately', 'daily', 'weekly', 'never'] as const;
export type EmailFrequency = (typeof EMAIL_FREQUENCIES)[number];

export const isWatchLevel = (v: string | undefined): v is WatchLevel =>
  (WATCH_LEVELS as readonly string[]).includes(v ?? '');
