// A question asked in several phrasings (the caller's `alternatives`: synonyms, the product's own
// terms, an error message), each searched alone and the rankings fused by reciprocal rank:
//
//   fused(topic) = Σ over phrasings of weight / (RRF_K + rank in that phrasing)
//
// One result per topic (each phrasing's own result for it: the first phrasing that found it
// shows it). The question as asked weighs ORIGINAL_WEIGHT, each alternative 1; a topic several
// phrasings find rises above one a single phrasing ranks high. A fused search is one page.
import { DomainError } from '../domain/errors.ts';
import type { Community } from '../store/types.ts';
import type { SearchFilters, SearchResponse, SearchResult } from './types.ts';

export const RRF_K = 60;
export const ORIGINAL_WEIGHT = 1;
/** How deep each phrasing's ranking is read (its first page of this many results). */
export const FUSION_DEPTH = 20;

/** The filters each phrasing is searched with: one page deep enough to fuse. */
export function fusionFilters<F extends { cursor?: string; limit?: number }>(filters: F): F {
  if (filters.cursor)
    throw new DomainError(
      'invalid_argument',
      'filters.cursor cannot be used with alternatives: a search with alternatives answers one fused page. Raise filters.limit (up to 50) instead, or search without alternatives to page.',
    );
  return { ...filters, limit: Math.min(50, Math.max(filters.limit ?? 10, FUSION_DEPTH)) };
}

/**
 * The phrasings' responses fused into one page of `limit` results, in fused order; `weights` per
 * response (default: ORIGINAL_WEIGHT for the first, 1 for the others).
 */
export function fuse(
  responses: SearchResponse[],
  limit: number,
  weights: number[] = [],
): SearchResponse {
  const fused = new Map<string, { result: SearchResult; score: number; first: number }>();
  responses.forEach((r, phrasing) => {
    const weight = weights[phrasing] ?? (phrasing === 0 ? ORIGINAL_WEIGHT : 1);
    r.results.forEach((result, i) => {
      const key = `${result.community ?? ''}/${result.topic_id}`;
      const seen = fused.get(key);
      const add = weight / (RRF_K + i + 1);
      if (seen) seen.score += add;
      else fused.set(key, { result, score: add, first: phrasing * 1000 + i });
    });
  });
  const ordered = [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first);
  const first = responses[0]!;
  return {
    query: first.query,
    mode: first.mode,
    total: Math.max(ordered.length, ...responses.map((r) => r.total)),
    results: ordered.slice(0, limit).map((x) => x.result),
  };
}

/** What one phrasing's search found: its page, its parsed query, the communities it spans. */
export type Found<P> = { response: SearchResponse; parsed: P; communities: Community[] };

/**
 * The question and each alternative (trimmed, each once, the question's own words left out)
 * searched by `find` and fused; without alternatives, the question's search alone. The parsed
 * query is the question's own (what snippets and suggestions are made from).
 */
export async function fusedFind<P>(
  find: (query: string, filters: SearchFilters) => Promise<Found<P>>,
  query: string,
  alternatives: string[],
  filters: SearchFilters,
): Promise<Found<P>> {
  const others = [...new Set(alternatives.map((a) => a.trim()))].filter(
    (a) => a && a !== query.trim(),
  );
  if (!others.length) return find(query, filters);
  const each = fusionFilters(filters);
  const runs = await Promise.all([query, ...others].map((q) => find(q, each)));
  const communities = new Map(runs.flatMap((r) => r.communities).map((c) => [c.id, c]));
  return {
    response: fuse(
      runs.map((r) => r.response),
      filters.limit ?? 10,
    ),
    parsed: runs[0]!.parsed,
    communities: [...communities.values()],
  };
}
