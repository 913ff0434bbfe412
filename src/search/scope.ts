// What a search knows and shows of where it looked: one community, a few named ones, or every public
// community (the network). A search of several communities weighs its head's words by the
// frequencies counted in its scope, reads its threads' signals in one statement over public
// threads, and presents each result with the community it is in (for the network, read by id).
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Frequencies, IndexHit, SearchIndex, SearchScope } from './index.ts';
import type { ParsedQuery } from './query.ts';
import { toResult, type UrlConfig } from './results.ts';
import type { SignalReader, WorkedInReader } from './signals.ts';
import { contentTerms } from './terms.ts';
import type { SearchResponse } from './types.ts';
import type { PostSignals } from '../store/votes.ts';
import { presentKnowledge } from '../domain/knowledge/shown.ts';

/** Where a search looks: these communities (the caller authorized them), or every public one. */
export type SearchWithin = Community[] | 'public';

/** A page's hits with their scores in [0, 1]. */
export type Scored = { hit: IndexHit; score: number }[];

/** A page of results, and the communities they are in. */
export type Page = { response: SearchResponse; communities: Community[] };

export function scopeOf(within: SearchWithin): SearchScope {
  return within === 'public'
    ? { kind: 'public' }
    : { kind: 'communities', ids: [...new Set(within.map((c) => c.id))] };
}

/**
 * How common the query's words are in a scope of several communities (counted there by the
 * engine), by our stemmer's terms: what its re-ranked head weighs the thread fields by.
 */
export async function scopeFrequencies(
  index: SearchIndex,
  parsed: ParsedQuery,
  scope: SearchScope,
): Promise<Frequencies | undefined> {
  const words = [
    ...new Set([
      ...parsed.terms.flatMap((t) => [t.word, ...t.alternatives]),
      ...parsed.phrases.flat(),
    ]),
  ];
  if (words.length === 0) return undefined;
  const counted = await index.wordFrequencies(words, scope);
  const byTerm = new Map<string, number>();
  for (const w of words)
    for (const t of contentTerms(w)) byTerm.set(t, Math.max(byTerm.get(t) ?? 1, counted.df(w)));
  return { topics: counted.topics, df: (term) => byTerm.get(term) ?? 1 };
}

/**
 * The threads' votes and confirmations, summed per topic: one community's through its scope; the
 * threads of several communities (the network's, all public) in one read over public threads.
 */
export function threadSignals(store: Store): SignalReader {
  return async (threads) => {
    const communities = new Set(threads.map((t) => t.communityId));
    if (communities.size === 1)
      return store
        .community([...communities][0]!)
        .votes.topicSignals(threads.map((t) => t.topicId));
    return store.publicThreads.signals(threads);
  };
}

/** Which threads worked in an environment, read per community (a head holds a few communities). */
export function threadsWorkedIn(store: Store): WorkedInReader {
  return async (threads, environment) => {
    const byCommunity = new Map<string, string[]>();
    for (const t of threads)
      byCommunity.set(t.communityId, [...(byCommunity.get(t.communityId) ?? []), t.topicId]);
    const found = await Promise.all(
      [...byCommunity].map(([id, topics]) =>
        store.community(id).knowledge.workedIn(topics, environment),
      ),
    );
    return new Set(found.flatMap((s) => [...s]));
  };
}

/**
 * A page of scored hits as results, with the communities they are in: the ones searched, or for
 * the network those of the page's hits, read by id (one statement; a community made private
 * since its posts were ranked is left out, with its hits).
 */
export async function presentPage(
  deps: { store: Store; urls: UrlConfig },
  within: SearchWithin,
  parsed: ParsedQuery,
  scored: Scored,
  page: Omit<SearchResponse, 'results'>,
): Promise<Page> {
  let communities: Community[];
  if (within === 'public') {
    const ids = [...new Set(scored.map((x) => x.hit.communityId))];
    communities = (await deps.store.communities.getByIds(ids)).filter(
      (c) => c.visibility === 'public',
    );
  } else communities = within;
  const byId = new Map(communities.map((c) => [c.id, c]));
  const named = within === 'public' || within.length > 1;
  // Hits read with their details carry their signals; others (a semantic page's) are read here.
  const unread = scored.filter((x) => !x.hit.signals);
  const knowledge =
    within === 'public' || !unread.length ? new Map() : await postSignals(deps.store, unread);
  const results = scored.flatMap(({ hit, score }) => {
    const community = byId.get(hit.communityId);
    if (!community) return [];
    const result = toResult(deps.urls, hit, community, named, parsed, score);
    const s = hit.signals ?? knowledge.get(hit.postId);
    return [s ? { ...result, ...presentKnowledge(s, hit.position > 1) } : result];
  });
  return { response: { ...page, results }, communities };
}

/**
 * The signals of a page's posts, one read per community searched (a community search: one): what
 * each result shows of what agents left on it (an answer's confidence, cited_by, its environment).
 */
async function postSignals(store: Store, scored: Scored): Promise<Map<string, PostSignals>> {
  const byCommunity = new Map<string, string[]>();
  for (const { hit } of scored)
    byCommunity.set(hit.communityId, [...(byCommunity.get(hit.communityId) ?? []), hit.postId]);
  const read = await Promise.all(
    [...byCommunity].map(([id, posts]) => store.community(id).votes.signals(posts)),
  );
  return new Map(read.flatMap((m) => [...m]));
}
