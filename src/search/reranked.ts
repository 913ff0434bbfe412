// The re-ranked head of a lexical search and its pages: the best HEAD topics among the engine's
// best HEAD_POOL posts, re-ranked by their thread profiles (./rerank.ts), then every other matching
// topic in the engine's order.
import type { IndexHit, PoolHit, SearchIndex } from './index.ts';
import { pageDetails } from './index.ts';
import type { Profiles } from './profiles.ts';
import { HEAD, rerankHead, type RerankOptions, type ScopeKnowledge } from './rerank.ts';
import type { EngineRequest } from './request.ts';
import {
  preferWorkedIn,
  withSignals,
  type SignalOptions,
  type SignalReader,
  type WorkedInReader,
} from './signals.ts';

/** Posts of the engine's ranking whose topics are the candidates of the re-ranked head. */
const HEAD_POOL = 200;

/**
 * What re-ranking reads: the engine, the stored thread profiles, which re-ranking parts run, and
 * the threads' votes and confirmations (./signals.ts: a bounded prior on the re-ranked head).
 */
export type Reranking = {
  index: SearchIndex;
  profiles: Profiles;
  ranking?: RerankOptions;
  signals?: SignalReader;
  signalOptions?: SignalOptions | false;
  /** Which threads have an answer that worked in an environment (read only when one is named). */
  workedIn?: WorkedInReader;
};

type Keyset = { key: number | string; id: string };

/**
 * The head, and every matching topic's count. A head of several communities' topics is then
 * diversified: at most PER_COMMUNITY of one community before every other has had its turn.
 */
export async function rerankedHead(
  r: Reranking,
  request: EngineRequest,
  knowledge: ScopeKnowledge,
): Promise<{ head: PoolHit[]; total: number }> {
  const { hits: candidates, total } = await r.index.candidates(
    { ...request, limit: HEAD },
    HEAD_POOL,
  );
  const profiles = await r.profiles.read(candidates.map((h) => h.topicId));
  const head = rerankHead(candidates, profiles, request.query, knowledge, r.ranking);
  const signalled = await preferWorkedIn(
    await withSignals(head, r.signals, r.signalOptions),
    r.workedIn,
    request.prefer,
  );
  const single = request.scope.kind === 'communities' && request.scope.ids.length === 1;
  return { head: single ? signalled : diversified(signalled, PER_COMMUNITY), total };
}

/** Topics of one community in each round of a diversified head. */
export const PER_COMMUNITY = 3;

/**
 * The hits in rounds: each community's first `per` hits (in the order given) before anyone's
 * next `per`, so a page shows many communities while their order within stays the ranking's.
 */
export function diversified<T extends { communityId: string }>(hits: T[], per: number): T[] {
  const seen = new Map<string, number>();
  return hits
    .map((h, i) => {
      const n = seen.get(h.communityId) ?? 0;
      seen.set(h.communityId, n + 1);
      return { h, round: Math.floor(n / per), i };
    })
    .sort((a, b) => a.round - b.round || a.i - b.i)
    .map((x) => x.h);
}

/**
 * A page of the re-ranked order. Pages inside the head are offsets ("h:<n>"); past it, a keyset
 * over the engine order that skips the head's topics (the head is recomputed, not carried in the
 * cursor), so every topic appears once and the total is every matching topic.
 */
export async function rerankedPage(
  r: Reranking,
  request: EngineRequest,
  knowledge: ScopeKnowledge,
  limit: number,
  headOffset: string | undefined,
  after: Keyset | undefined,
): Promise<[IndexHit[], number, Keyset | undefined]> {
  const { head, total } = await rerankedHead(r, request, knowledge);
  const offset = after && headOffset === undefined ? head.length : Number(headOffset ?? 0);
  const shown = await pageDetails(r.index.db, head.slice(offset, offset + limit));
  const need = limit - shown.length;
  if (need === 0) {
    return [
      shown,
      total,
      offset + limit < head.length || total > head.length
        ? { key: `h:${offset + limit}`, id: 'h' }
        : undefined,
    ];
  }
  if (total <= head.length) return [shown, total, undefined];
  const inHead = new Set(head.map((h) => h.topicId));
  const keyset =
    after && headOffset === undefined ? { raw: Number(after.key), id: after.id } : undefined;
  const tail = await r.index.search({
    ...request,
    limit: need + inHead.size + 1,
    after: keyset,
  });
  const rest = tail.hits.filter((h) => !inHead.has(h.topicId));
  const taken = rest.slice(0, need);
  const end = taken[taken.length - 1];
  return [
    [...shown, ...taken],
    total,
    rest.length > need && end ? { key: end.raw, id: end.postId } : undefined,
  ];
}
