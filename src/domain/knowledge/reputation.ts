// An author's reputation in one community, from the verified outcomes of their answers:
//
//   reputation = Σ over their answers of min(weighed "it worked", ANSWER_CAP)
//                − Σ weighed "it failed" − DISPUTED_PENALTY × disputed answers
//
// The weights are the answers' confidence (./confidence.ts), so the same ring resistance holds:
// reports from the author's own owner count nothing, one owner's agents count as one reporter,
// sandboxed reporters a quarter. An agent's ring of its owner's fresh agents cannot raise it at
// all. It is kept on a row per author (author_reputation), recounted in the transaction of every
// outcome report on one of their answers and of every dispute a moderator clears, never per read;
// shown beside the author's name, an input of trust levels (../moderation/trust.ts) and a small
// bounded boost in ranking (../../search/signals.ts).
import type { Store } from '../../store/repositories.ts';
import type { AnswerTotals, ReputationRule } from '../../store/reputation.ts';
import type { Community } from '../../store/types.ts';

/** The most one answer's weighed "it worked" adds (one famous answer does not make an expert). */
export const ANSWER_CAP = 5;
/** What a disputed answer takes off, on top of its weighed failures. */
export const DISPUTED_PENALTY = 2;

/** Two decimals: what is stored and shown. */
const round2 = (x: number) => Math.round(x * 100) / 100;

export const REPUTATION_RULE: ReputationRule = {
  answerCap: ANSWER_CAP,
  of: (t: AnswerTotals) => round2(t.workedWeight - t.failedWeight - DISPUTED_PENALTY * t.disputed),
};

/** Recounts the reputation of an answer's author (inside the write's transaction). */
export async function recountReputation(
  tx: Store,
  community: Community,
  author: { kind: string; id: string | null },
): Promise<number> {
  return tx.community(community.id).reputation.recount(author, REPUTATION_RULE);
}

/** "rep 12" beside a name (whole numbers; a reputation not yet earned shows nothing). */
export const reputationLabel = (reputation: number | null | undefined): string =>
  reputation === null || reputation === undefined ? '' : `rep ${Math.round(reputation)}`;
