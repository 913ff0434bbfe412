// Mail records and the repository contracts over them: the outbox of outbound mails (written in the
// change's transaction, claimed by one dispatcher at a time under a lease), the kinds of mail people
// turned off, hard bounces per address, single-use account tokens (only their hash), verified
// addresses, and each community's rule for unverified accounts.
import type { Keyset, Page } from './types.ts';

export type MailStatus = 'pending' | 'sent' | 'failed';

export type NewMail = {
  id: string;
  messageId: string;
  communityId: string | null;
  personId: string | null;
  to: string;
  kind: string;
  subject: string;
  text: string;
  html: string | null;
  headers: Record<string, string>;
};

export type MailRecord = NewMail & {
  status: MailStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
};

export type ClaimedMail = { mail: MailRecord; leaseToken: string };

export type MailOutcome =
  | { status: 'sent' }
  | { status: 'pending'; nextAttemptAt: number; lastError: string }
  | { status: 'failed'; lastError: string };

export interface MailOutbox {
  /** The outbox write: call inside the transaction of the change that causes the mail. */
  enqueue(mail: NewMail, now?: number): Promise<void>;
  /**
   * Claims up to `limit` due mails for `leaseMs` by one conditional UPDATE (FOR UPDATE SKIP LOCKED
   * on PostgreSQL, SQLite's single write lock), counting the attempt: two claimers never hold one mail.
   */
  claim(input: { now: number; leaseMs: number; limit: number }): Promise<ClaimedMail[]>;
  /** Ends a claim; false when the lease was lost meanwhile (nothing changed). */
  finish(id: string, leaseToken: string, outcome: MailOutcome): Promise<boolean>;
  /**
   * Gives a claim back untried (its send was interrupted by a stop): the mail is due again at once
   * for any dispatcher and the claim's attempt is not counted; false when the lease was lost.
   */
  release(id: string, leaseToken: string): Promise<boolean>;
  /** When the next pending mail falls due (epoch ms), if any. */
  nextDue(): Promise<number | null>;
  get(id: string): Promise<MailRecord | undefined>;
  /** Newest first; `communityId` undefined lists every mail, null those of no community. */
  list(query: {
    status?: MailStatus;
    communityId?: string | null;
    after?: Keyset;
    limit: number;
  }): Promise<Page<MailRecord, Keyset>>;
  counts(communityId?: string | null): Promise<Record<MailStatus, number>>;
  /** Makes a failed or pending mail due now again (same Message-ID); false if unknown or sent. */
  retry(id: string, now?: number): Promise<boolean>;

  /** The mail whose Message-ID (with angle brackets) this is: a bounce names the mail it returns. */
  getByMessageId(messageId: string): Promise<MailRecord | undefined>;

  unsubscribe(personId: string, kind: string): Promise<void>;
  isUnsubscribed(personId: string, kind: string): Promise<boolean>;

  /**
   * Counts one hard bounce for the address (any case) and, when it reaches `limit`, disables mail
   * to it; returns the state after the count.
   */
  recordHardBounce(
    address: string,
    reason: string,
    limit: number,
    at?: string,
  ): Promise<BounceState>;
  /** The address's bounces (undefined: none counted). */
  bounceState(address: string): Promise<BounceState | undefined>;
  /** Forgets the address's bounces (its owner confirmed it again): mail to it is on. */
  clearBounces(address: string): Promise<void>;
  /** The community a topic belongs to (a reply by e-mail names the topic only). */
  topicCommunity(topicId: string): Promise<string | undefined>;
}

export type BounceState = {
  address: string;
  hardBounces: number;
  lastReason: string | null;
  lastAt: string;
  /** When mail to the address was turned off; null while it is on. */
  disabledAt: string | null;
};

export type AccountTokenRecord = {
  id: string;
  personId: string;
  purpose: string;
  email: string;
  expiresAt: number;
  usedAt: number | null;
  createdAt: string;
};

export interface AccountTokens {
  create(input: {
    personId: string;
    purpose: string;
    tokenHash: string;
    email: string;
    expiresAt: number;
  }): Promise<AccountTokenRecord>;
  /**
   * Spends a token: marks it used by one conditional UPDATE when it has this purpose, is unused and
   * unexpired at `now`, and returns it; undefined otherwise (two spenders: one wins).
   */
  consume(tokenHash: string, purpose: string, now: number): Promise<AccountTokenRecord | undefined>;
  /** Marks every live token of the person for `purpose` used (a new link replaces the old ones). */
  revokeAll(personId: string, purpose: string, now: number): Promise<number>;

  /** Gives the person a new sign-in address; UniqueViolation when another account has it. */
  changeEmail(personId: string, email: string): Promise<void>;

  markVerified(personId: string, email: string, at?: string): Promise<void>;
  /** The address the person verified, if any (compare it with their current one). */
  verifiedEmail(personId: string): Promise<string | undefined>;

  /** Whether the community lets unverified accounts post (undefined: not set, the default applies). */
  unverifiedMayPost(communityId: string): Promise<boolean | undefined>;
  setUnverifiedMayPost(communityId: string, value: boolean): Promise<void>;
}
