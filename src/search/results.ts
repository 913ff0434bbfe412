// A search hit as the result object every face returns (exactly the documented fields), and the
// scores: raw engine relevance mapped into [0, 1].
import type { Community } from '../store/types.ts';
import { topicUrl, type UrlConfig } from '../domain/urls.ts';
import type { IndexHit } from './index.ts';
import { queryWords, type ParsedQuery } from './query.ts';
import { makeSnippet, plainText } from './snippet.ts';
import type { SearchResult } from './types.ts';

export type { UrlConfig } from '../domain/urls.ts';

/**
 * Raw relevance that maps to score 0.5, calibrated on the ham corpus questions (bench/search-quality).
 * Both engines rank by BM25 on one scale (PostgreSQL's median best raw 22, SQLite's 26 on the
 * labelled questions), so a score means about the same on both.
 */
export const HALF_POINT = { sqlite: 12, postgres: 10 } as const;

/** score = raw / (raw + halfPoint), in [0, 1]. */
export function normalizeScore(raw: number, halfPoint: number): number {
  // A match never scores 0 (BM25's idf is ~0 for a word in most documents of a tiny corpus).
  return Math.max(0.0001, round4(raw <= 0 ? 0 : raw / (raw + halfPoint)));
}

/** A hit of `community` as a result; `named`: the search spanned several communities, so it says which. */
export function toResult(
  urls: UrlConfig,
  h: IndexHit,
  community: Community,
  named: boolean,
  q: ParsedQuery,
  score: number,
): SearchResult {
  const first = h.position === 1;
  const sourceType = first ? (h.categoryKind === 'knowledge_base' ? 'article' : 'topic') : 'post';
  const result: SearchResult = {
    source_type: sourceType,
    source_id: first ? h.topicId : h.postId,
    topic_id: h.topicId,
    title: h.title,
    snippet: makeSnippet(plainText(h.body), queryWords(q)),
    url: topicUrl(urls, community, h.topicSlug, first ? undefined : h.postId),
    score,
    category: h.categorySlug,
    author: authorName({ kind: h.authorKind, name: h.authorName }),
    ...(h.authorReputation === null || h.authorReputation === undefined
      ? {}
      : { author_reputation: Number(h.authorReputation) }),
    is_solution: h.solutionPostId === h.postId,
    created_at: new Date(h.createdAt).toISOString(),
  };
  if (named) result.community = community.slug;
  return result;
}

export function authorName(author: { kind: string; name: string }): string {
  return author.kind === 'agent' ? `${author.name} (agent)` : author.name;
}

export function round4(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 10_000) / 10_000;
}
