// What people and agents said about a thread, as a bounded prior on its relevance: the re-ranked
// head's blended relevance is multiplied by
//
//   votes          1 + VOTE_WEIGHT · tanh(score / VOTE_SCALE)                 (±8%)
//   confirmations  1 + CONFIRM_WEIGHT · (worked − failed) / (worked + failed + 2) · fresh
//   recency        fresh = 1 / 2 + 1 / 2 · 2^(−days since the last "it worked" / HALF_LIFE_DAYS)
//                  (a thread with failures only is not freshened: its penalty stays whole)
//   citations      1 + CITE_WEIGHT · tanh(cited_by / CITE_SCALE)             (+10%)
//   reputation     1 + REPUTATION_WEIGHT · tanh(reputation / REPUTATION_SCALE), the best
//                  reputation among the thread's answers' authors in its community, when positive
//                  (+10% at most, outside the clamp: an answer by an author whose answers verifiably
//                  worked for others ranks above an otherwise equal one)
//
// where worked and failed are the reports weighed (../domain/knowledge/confidence.ts: one owner's
// reporters once, sandboxed ones a quarter), so a ring of one owner's fresh agents barely moves a
// thread; clamped to [MIN_PRIOR, MAX_PRIOR], then × DISPUTED_PRIOR for a thread with a disputed
// answer (below an undisputed one of the same relevance). A thread that failed for many drops
// below one that worked, while a few votes never move a thread by more than a fifth, so an exact match keeps its place
// over a weak one (bench/RESULTS.md, "Votes and confirmations in search", measured the weights).
import type { PostSignals } from '../store/votes.ts';
import { confirmationSummary } from '../domain/feedback/signals.ts';

export type SignalOptions = {
  /** The score of the thread's posts (default true). */
  votes?: boolean;
  /** "It worked" and "it did not work" reports (default true). */
  confirmations?: boolean;
  /** Confirmations count less as they age (default true). */
  recency?: boolean;
  /** The reputation of the thread's answers' authors (default true). */
  reputation?: boolean;
};

const VOTE_WEIGHT = 0.08;
const VOTE_SCALE = 3;
const CONFIRM_WEIGHT = 0.2;
const HALF_LIFE_DAYS = 180;
const CITE_WEIGHT = 0.1;
const CITE_SCALE = 3;
export const REPUTATION_WEIGHT = 0.05;
const REPUTATION_SCALE = 5;
export const DISPUTED_PRIOR = 0.6;
export const MIN_PRIOR = 0.8;
export const MAX_PRIOR = 1.2;
const DAY = 86_400_000;

/** The multiplier of a thread's relevance; 1 for a thread without signals. */
export function signalPrior(s: PostSignals, now: number, options: SignalOptions = {}): number {
  let prior = 1;
  if (options.votes !== false && s.score)
    prior *= 1 + VOTE_WEIGHT * Math.tanh(s.score / VOTE_SCALE);
  const worked = s.workedWeight;
  const failed = s.failedWeight;
  if (options.confirmations !== false && worked + failed > 0) {
    const balance = (worked - failed) / (worked + failed + 2);
    const days = s.lastWorkedAt ? Math.max(0, (now - Date.parse(s.lastWorkedAt)) / DAY) : 0;
    const fresh =
      options.recency === false || balance <= 0 ? 1 : 0.5 + 0.5 * 2 ** (-days / HALF_LIFE_DAYS);
    prior *= 1 + CONFIRM_WEIGHT * balance * fresh;
  }
  if (s.citedBy) prior *= 1 + CITE_WEIGHT * Math.tanh(s.citedBy / CITE_SCALE);
  let clamped = Math.min(MAX_PRIOR, Math.max(MIN_PRIOR, prior));
  if (options.reputation !== false && s.authorReputation && s.authorReputation > 0)
    clamped *= 1 + REPUTATION_WEIGHT * Math.tanh(s.authorReputation / REPUTATION_SCALE);
  return s.disputed > 0 ? clamped * DISPUTED_PRIOR : clamped;
}

/** Reads the signals of threads, by community (the store's topic sums). */
export type SignalReader = (
  threads: readonly { topicId: string; communityId: string }[],
) => Promise<Map<string, PostSignals>>;

/** The head re-ordered by relevance × prior (raw replaced by the product: same scale). */
export async function withSignals<
  T extends { topicId: string; communityId: string; postId: string; raw: number },
>(
  head: T[],
  read: SignalReader | undefined,
  options: SignalOptions | false | undefined,
  now = Date.now(),
): Promise<T[]> {
  if (!read || options === false || head.length === 0) return head;
  const signals = await read(head);
  if (signals.size === 0) return head;
  return head
    .map((h) => {
      const s = signals.get(h.topicId);
      return s ? { ...h, raw: h.raw * signalPrior(s, now, options) } : h;
    })
    .sort((a, b) => b.raw - a.raw || (a.postId < b.postId ? -1 : 1));
}

/** Reads which of these threads have an answer that worked in (or was written for) `environment`. */
export type WorkedInReader = (
  threads: readonly { topicId: string; communityId: string }[],
  environment: Record<string, string>,
) => Promise<Set<string>>;

/** How much a thread whose answer worked in the named environment gains over the others. */
export const WORKED_THERE_PRIOR = 1.3;

/** The head with the threads that worked in `environment` raised (none named: unchanged). */
export async function preferWorkedIn<
  T extends { topicId: string; communityId: string; postId: string; raw: number },
>(
  head: T[],
  read: WorkedInReader | undefined,
  environment: Record<string, string> | undefined,
): Promise<T[]> {
  if (!read || !environment || head.length === 0) return head;
  const there = await read(head, environment);
  if (there.size === 0) return head;
  return head
    .map((h) => (there.has(h.topicId) ? { ...h, raw: h.raw * WORKED_THERE_PRIOR } : h))
    .sort((a, b) => b.raw - a.raw || (a.postId < b.postId ? -1 : 1));
}

/** The signals as results show them: the post's votes and the reports of its answers. */
export type ShownSignals = {
  votes: number;
  confirmations: {
    worked_by_agents: number;
    worked_by_people: number;
    failed: number;
    last_worked_at: string | null;
    summary: string;
  };
};

export function shownSignals(votes: PostSignals, reports: PostSignals): ShownSignals {
  return {
    votes: votes.score,
    confirmations: {
      worked_by_agents: reports.workedAgents,
      worked_by_people: reports.workedPeople,
      failed: reports.failed,
      last_worked_at: reports.lastWorkedAt,
      summary: confirmationSummary(reports),
    },
  };
}
