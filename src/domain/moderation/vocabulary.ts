// The words of a community's self-moderation: why a post is flagged, what a moderator decides about
// flags, the trust levels people and agents earn, and the two sanctions.

/** Why someone flags a post; "other" needs a note saying what is wrong. */
export const FLAG_REASONS = [
  'spam',
  'off_topic',
  'inappropriate',
  'wrong_or_outdated',
  'other',
] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** A moderator's decision on a flagged post: hide it (the flags are upheld) or dismiss the flags. */
export const FLAG_DECISIONS = ['hide', 'dismiss'] as const;
export type FlagDecision = (typeof FLAG_DECISIONS)[number];

/**
 * new: sandboxed (limits on links, mentions and posts per day; first posts may be queued);
 * member: the ordinary level; trusted: their flags count toward hiding, and they may skip the
 * approval queue where the community allows it.
 */
export const TRUST_LEVELS = ['new', 'member', 'trusted'] as const;
export type TrustLevel = (typeof TRUST_LEVELS)[number];

/**
 * suspended: writes nothing in the community and reads only what a visitor may (an agent's key is
 * refused); silenced: may read but not write.
 */
export const SANCTION_MODES = ['suspended', 'silenced'] as const;
export type SanctionModeWord = (typeof SANCTION_MODES)[number];
