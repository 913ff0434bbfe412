// What people and agents said about a thread, as a bounded prior on its relevance: the re-ranked
// head's blended relevance is multiplied by
//
//   votes          1 + VOTE_WEIGHT · tanh(score / VOTE_SCALE)                 (±8%)
//   confirmations  1 + CONFIRM_WEIGHT · (worked − failed) / (worked + failed + 2) · fresh
//   recency        fresh = 1 / 2 + 1 / 2 · 2^(−days since the last "it worked" / HALF_LIFE_DAYS)
//                  (a thread with failures only is not freshened: its penalty stays whole)
//
// clamped to [MIN_PRIOR, MAX_PRIOR]: a thread that failed for many drops below one that worked,
// while a few votes never move a thread by more than a fifth, so an exact match keeps its place
// over a weak one (bench/RESULTS.md, "Votes and confirmations in search", measured the weights).
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import { NO_SIGNALS, type PostSignals } from '../store/votes.ts';
import { confirmationSummary } from '../domain/feedback/signals.ts';

export type SignalOptions = {
  /** The score of the thread's posts (default true). */
  votes?: boolean;
  /** "It worked" and "it did not work" reports (default true). */
  confirmations?: boolean;
  /** Confirmations count less as they age (default true). */
  recency?: boolean;
};

const VOTE_WEIGHT = 0.08;
const VOTE_SCALE = 3;
const CONFIRM_WEIGHT = 0.2;
const HALF_LIFE_DAYS = 180;
export const MIN_PRIOR = 0.8;
export const MAX_PRIOR = 1.2;
const DAY = 86_400_000;

/** The multiplier of a thread's relevance; 1 for a thread without signals. */
export function signalPrior(s: PostSignals, now: number, options: SignalOptions = {}): number {
  let prior = 1;
  if (options.votes !== false && s.score)
    prior *= 1 + VOTE_WEIGHT * Math.tanh(s.score / VOTE_SCALE);
  const worked = s.workedAgents + s.workedPeople;
  if (options.confirmations !== false && worked + s.failed > 0) {
    const balance = (worked - s.failed) / (worked + s.failed + 2);
    const days = s.lastWorkedAt ? Math.max(0, (now - Date.parse(s.lastWorkedAt)) / DAY) : 0;
    const fresh =
      options.recency === false || balance <= 0 ? 1 : 0.5 + 0.5 * 2 ** (-days / HALF_LIFE_DAYS);
    prior *= 1 + CONFIRM_WEIGHT * balance * fresh;
  }
  return Math.min(MAX_PRIOR, Math.max(MIN_PRIOR, prior));
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

/**
 * Each result with its signals: `votes` of the post it is (a topic or article result: its first
 * post), `confirmations` of the whole thread's answers (a post result: of that post).
 */
export async function attachSignals<R extends { community?: string }>(
  store: Store,
  communities: Community[],
  results: R[],
  refs: readonly { postId: string; topicId: string; communityId: string; isPost: boolean }[],
): Promise<(R & ShownSignals)[]> {
  const byCommunity = new Map<string, { posts: string[]; topics: string[] }>();
  for (const r of refs) {
    const c = byCommunity.get(r.communityId) ?? { posts: [], topics: [] };
    c.posts.push(r.postId);
    if (!r.isPost) c.topics.push(r.topicId);
    byCommunity.set(r.communityId, c);
  }
  const posts = new Map<string, PostSignals>();
  const topics = new Map<string, PostSignals>();
  for (const [id, c] of byCommunity) {
    if (!communities.some((x) => x.id === id)) continue;
    const votes = store.community(id).votes;
    for (const [k, v] of await votes.signals(c.posts)) posts.set(k, v);
    if (c.topics.length) for (const [k, v] of await votes.topicSignals(c.topics)) topics.set(k, v);
  }
  return results.map((r, i) => {
    const ref = refs[i]!;
    const own = posts.get(ref.postId) ?? NO_SIGNALS;
    return {
      ...r,
      ...shownSignals(own, ref.isPost ? own : (topics.get(ref.topicId) ?? NO_SIGNALS)),
    };
  });
}
