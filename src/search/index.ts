// The engine side of search: one interface, an SQLite FTS5 and a PostgreSQL full-text
// implementation (./sqlite-index.ts, ./postgres-index.ts). Both read the index the triggers of
// migration 0005_search keep up to date; neither writes it.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { Dialect, Store } from '../store/repositories.ts';
import type { ParsedQuery } from './query.ts';
import type { SourceType } from './types.ts';

export type IndexFilters = {
  categorySlug?: string;
  tags?: string[];
  solvedOnly?: boolean;
  sourceTypes?: SourceType[];
  author?: string;
  since?: string;
  until?: string;
};

export type IndexQuery = {
  communityIds: string[];
  query: ParsedQuery;
  filters: IndexFilters;
  limit: number;
  /** Keyset: continue after this (raw score, post id). */
  after?: { raw: number; id: string };
};

/**
 * One result per topic: its accepted answer when that matches the query and the filters, else its
 * best-ranked post; ranked by the topic's best post.
 */
export type IndexHit = {
  postId: string;
  topicId: string;
  communityId: string;
  position: number;
  topicSlug: string;
  title: string;
  categorySlug: string;
  categoryKind: string;
  authorKind: string;
  authorName: string;
  createdAt: string;
  body: string;
  solutionPostId: string | null;
  /** Engine relevance × boosts; larger is better; unbounded. */
  raw: number;
};

export type IndexReport = { posts: number; indexed: number; missing: number; stale: number; orphans: number };

export interface SearchIndex {
  readonly engine: Dialect;
  /** Ranked, filtered, one hit per topic, keyset-paginated; total counts topics over all pages. */
  search(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }>;
  /** The bare engine query (match + engine rank + limit, nothing else): the benchmark baseline. */
  bare(q: ParsedQuery, limit: number): Promise<string[]>;
  /** Of these words, the ones that match no indexed document at all. */
  unmatched(words: string[]): Promise<string[]>;
  /** Index terms within one edit of the word (most frequent first), to stand in for a typo. */
  corrections(word: string, max?: number): Promise<string[]>;
  /** Compares the index with the posts table (every post indexed with its current text, no extras). */
  verify(): Promise<IndexReport>;
}

/** The Kysely instance behind a Store (the store keeps it private; search reads it, never writes). */
export function kyselyOf(store: Store): Kysely<Database> {
  const db = (store as unknown as { db?: Kysely<Database> }).db;
  if (!db) throw new Error('Search needs the Kysely-backed store from src/store/open.ts.');
  return db;
}

export const SOLUTION_BOOST = 1.6;
export const SOLVED_TOPIC_BOOST = 1.15;
export const RECENCY_WEIGHT = 0.05;
