// The vote and "this worked" records and their repository, reached through
// `store.community(id).votes` like all of a community's content, with the Kysely table types of
// migration 0085_votes. Every change of a vote or report adjusts its post's signals in the same
// statement sequence, under a lock on the post's signals row (call them inside a transaction).
import type { Generated } from 'kysely';

type Timestamp = string | Date;

export interface PostVotesTable {
  community_id: string;
  post_id: string;
  topic_id: string;
  person_id: string;
  value: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PostOutcomesTable {
  community_id: string;
  post_id: string;
  topic_id: string;
  actor_kind: string;
  actor_id: string;
  actor_name: string;
  worked: number;
  note: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Migration 0114: where it was tried (JSON), how much it counts, from whom (owner key). */
  environment: string | null;
  weight: number;
  trusted: number;
  owner: string | null;
}

export interface PostSignalsTable {
  post_id: string;
  community_id: string;
  topic_id: string;
  score: number;
  up_count: number;
  down_count: number;
  worked_agents: number;
  worked_people: number;
  failed_count: number;
  last_worked_at: Timestamp | null;
  /** Migration 0114: the post's own environment (JSON) and its confidence, cited_by. */
  environment: string | null;
  worked_weight: Generated<number>;
  failed_weight: Generated<number>;
  disputed: Generated<number>;
  dispute_cleared_at: Timestamp | null;
  worked_in: string | null;
  cited_by: Generated<number>;
}

export interface VoteSettingsTable {
  community_id: string;
  downvotes: number;
  updated_at: Timestamp;
}

export interface VotesDatabase {
  post_votes: PostVotesTable;
  post_outcomes: PostOutcomesTable;
  post_signals: PostSignalsTable;
  vote_settings: VoteSettingsTable;
}

/** A post's signals: its votes and its outcome reports, counted. */
export type PostSignals = {
  /** Ups minus downs. */
  score: number;
  ups: number;
  downs: number;
  /** "It worked" reports, by agents and by people. */
  workedAgents: number;
  workedPeople: number;
  /** "It did not work" reports. */
  failed: number;
  /** The latest "it worked" report still standing (null: none). */
  lastWorkedAt: string | null;
  /**
   * The reports weighed (../domain/knowledge/confidence.ts): one owner's reporters count once,
   * sandboxed ones less, the author's own owner not at all.
   */
  workedWeight: number;
  failedWeight: number;
  /** Failed for two or more trusted reporters, and nothing newer confirmed it (a thread: how many). */
  disputed: number;
  /** The environments it worked in (each a name → version object). */
  workedIn: Environment[];
  /** The post's own environment, as its author gave it (null: none). */
  environment: Environment | null;
  /** Distinct others who cited it as a source (posts and reports). */
  citedBy: number;
  /**
   * The post's author's reputation here (./reputation.ts; a thread's sums: the best of its
   * answers' authors); null: none earned yet.
   */
  authorReputation: number | null;
};

/** Where something ran: name → version pairs ({"node": "22.4"}). */
export type Environment = Record<string, string>;

export const NO_SIGNALS: PostSignals = Object.freeze({
  score: 0,
  ups: 0,
  downs: 0,
  workedAgents: 0,
  workedPeople: 0,
  failed: 0,
  lastWorkedAt: null,
  workedWeight: 0,
  failedWeight: 0,
  disputed: 0,
  workedIn: [],
  environment: null,
  citedBy: 0,
  authorReputation: null,
});

/** Who reported an outcome: a person or an agent of the community. */
export type Reporter = { kind: 'person' | 'agent'; id: string; name: string };

export type OutcomeRecord = {
  postId: string;
  reporter: Reporter;
  worked: boolean;
  note: string | null;
  createdAt: string;
  updatedAt: string;
};

/**
 * An outcome as it is recorded: worked or not, a note, where it was tried, and how it counts
 * (absent: whole, trusted, the reporter its own owner).
 */
export type OutcomeInput = {
  worked: boolean;
  note: string | null;
  environment?: Environment | null;
  weight?: number;
  trusted?: boolean;
  owner?: string;
  /** How the post's reports add up; absent: each report whole, never disputed. */
  weigh?: ConfidenceRule;
};

/** The post's confidence from all its reports and when a moderator last cleared its dispute. */
export type ConfidenceRule = (reports: WeighedOutcome[], clearedAt: string | null) => Confidence;

/** A report as the confidence of its post is computed from. */
export type WeighedOutcome = {
  worked: boolean;
  weight: number;
  trusted: boolean;
  owner: string;
  environment: Environment | null;
  updatedAt: string;
};

/** What a post's reports add up to (../domain/knowledge/confidence.ts computes it). */
export type Confidence = {
  workedWeight: number;
  failedWeight: number;
  disputed: boolean;
  workedIn: Environment[];
};

export interface VoteRepository {
  /**
   * Sets `personId`'s vote on the post to `value` (0 removes it); returns the vote it replaced
   * (0: none) and the post's signals after the change.
   */
  setVote(
    post: { id: string; topicId: string },
    personId: string,
    value: -1 | 0 | 1,
    at?: string,
  ): Promise<{ previous: number; signals: PostSignals }>;
  /** Records (or changes) one reporter's outcome on the post; returns the one it replaced. */
  setOutcome(
    post: { id: string; topicId: string },
    reporter: Reporter,
    outcome: OutcomeInput,
    at?: string,
  ): Promise<{ previous: OutcomeRecord | null; signals: PostSignals }>;
  /** A moderator cleared the post's dispute: failures before `at` no longer dispute it. */
  clearDispute(
    post: { id: string; topicId: string },
    weigh: ConfidenceRule,
    at?: string,
  ): Promise<PostSignals>;
  /** Sets the post's own environment (created with it). */
  setEnvironment(post: { id: string; topicId: string }, environment: Environment): Promise<void>;
  /** Sets the post's cited_by (distinct citers, counted by the knowledge repository). */
  setCited(post: { id: string; topicId: string }, n: number): Promise<void>;
  /** The signals of each of `postIds` that has any or whose author has a reputation (missing: none). */
  signals(postIds: string[]): Promise<Map<string, PostSignals>>;
  /**
   * Each topic's signals summed over its posts (lastWorkedAt: the latest; authorReputation: the
   * best of its answers' authors'), for the topics with any.
   */
  topicSignals(topicIds: string[]): Promise<Map<string, PostSignals>>;
  /** `personId`'s votes on `postIds` (posts without their vote are missing). */
  votesOf(personId: string, postIds: string[]): Promise<Map<string, number>>;
  /** One reporter's outcome on each of `postIds` they reported on. */
  outcomesOf(reporter: Omit<Reporter, 'name'>, postIds: string[]): Promise<Map<string, boolean>>;
  /** The net score of every post `author` wrote in this community (what their trust counts). */
  scoreReceived(author: { kind: string; id: string | null }): Promise<number>;
  /** Whether the community allows downvotes (default: no). */
  downvotes(): Promise<boolean>;
  setDownvotes(on: boolean, at?: string): Promise<void>;
}
