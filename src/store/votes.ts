// The vote and "this worked" records and their repository, reached through
// `store.community(id).votes` like all of a community's content, with the Kysely table types of
// migration 0085_votes. Every change of a vote or report adjusts its post's signals in the same
// statement sequence, under a lock on the post's signals row (call them inside a transaction).
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
};

export const NO_SIGNALS: PostSignals = Object.freeze({
  score: 0,
  ups: 0,
  downs: 0,
  workedAgents: 0,
  workedPeople: 0,
  failed: 0,
  lastWorkedAt: null,
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
    outcome: { worked: boolean; note: string | null },
    at?: string,
  ): Promise<{ previous: OutcomeRecord | null; signals: PostSignals }>;
  /** The signals of each of `postIds` that has any (missing: none). */
  signals(postIds: string[]): Promise<Map<string, PostSignals>>;
  /** Each topic's signals summed over its posts (lastWorkedAt: the latest), for the topics with any. */
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
