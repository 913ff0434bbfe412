// What a search knows and shows of where it looked: one community, a few named ones, or every public
// community (the network). A search of several communities weighs its head's words by the
// frequencies counted in its scope, reads its threads' signals in one statement over public
// threads, and presents each result with the community it is in (for the network, read by id).
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Frequencies, IndexHit, SearchIndex, SearchScope } from './index.ts';
import type { ParsedQuery } from './query.ts';
import { toResult, type UrlConfig } from './results.ts';
import type { SignalReader } from './signals.ts';
import { contentTerms } from './terms.ts';
import type { SearchResponse } from './types.ts';

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
  const results = scored.flatMap(({ hit, score }) => {
    const community = byId.get(hit.communityId);
    return community ? [toResult(deps.urls, hit, community, named, parsed, score)] : [];
  });
  return { response: { ...page, results }, communities };
}
