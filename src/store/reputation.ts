// Each author's reputation per community, reached through `store.community(id).reputation`, with
// the Kysely table type of migration 0117_author_reputation: what the verified outcomes of their
// answers add up to, recounted (by the domain's rule) in the transaction that changed one of them.

type Timestamp = string | Date;

export interface AuthorReputationTable {
  community_id: string;
  author_kind: string;
  author_id: string;
  reputation: number;
  /** Their answers' weighed "it worked" (each answer counted up to the rule's cap), "it failed". */
  worked_weight: number;
  failed_weight: number;
  /** How many of their answers are disputed. */
  disputed: number;
  updated_at: Timestamp;
}

export interface ReputationDatabase {
  author_reputation: AuthorReputationTable;
}

/** What an author's answers add up to: weighed "it worked" (capped per answer), "it failed", disputed. */
export type AnswerTotals = { workedWeight: number; failedWeight: number; disputed: number };

/** How answers make a reputation (../domain/knowledge/reputation.ts holds the rule). */
export type ReputationRule = {
  /** The most one answer's weighed "it worked" adds. */
  answerCap: number;
  of: (totals: AnswerTotals) => number;
};

/** An author as posts name them. */
export type ReputedAuthor = { kind: string; id: string | null };

export interface ReputationRepository {
  /**
   * Recounts the author's reputation from the signals of their answers here (not the questions
   * they asked, not deleted posts) by `rule`, stores it and returns it.
   */
  recount(author: ReputedAuthor, rule: ReputationRule, at?: string): Promise<number>;
  /** The author's reputation here (0: none yet). */
  of(author: ReputedAuthor): Promise<number>;
}
