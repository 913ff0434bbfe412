// SQLite FTS5: bm25() over (title, context, body), boosts and filters in the same statement. The
// index's entry points; the pool of best matches is ./sqlite-pool.ts, filtered pages
// ./sqlite-filtered.ts, the rowid layout and MATCH text ./sqlite-rowids.ts.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { ParsedQuery } from './query.ts';
import { Vocabulary } from './vocabulary.ts';
import { filteredCandidates, filteredPage, SQLITE_WEIGHTS } from './sqlite-filtered.ts';
import {
  communityNumbers,
  communityRange,
  matchExpression,
  quote,
  rangeCondition,
} from './sqlite-rowids.ts';
import { SqlitePool, upperBound, type PoolOptions } from './sqlite-pool.ts';
import { verifySqliteIndex } from './sqlite-verify.ts';
import {
  MAX_BOOST,
  POOL,
  hasFilters,
  pageDetails,
  pageOf,
  type IndexHit,
  type IndexQuery,
  type IndexReport,
  type PoolHit,
  type SearchIndex,
} from './index.ts';

export { SQLITE_WEIGHTS, matchExpression };

/** Documents counted per typo-correction candidate to order the candidates. */
const CORRECTION_COUNT_CAP = 1000;

export class SqliteSearchIndex implements SearchIndex {
  readonly engine = 'sqlite' as const;
  /** Index terms by first character with document frequencies, for typo correction (./vocabulary.ts). */
  readonly vocabulary: Vocabulary;
  /** The best matches of a search without filters, and the caches behind them. */
  private readonly pools: SqlitePool;
  constructor(
    readonly db: Kysely<Database>,
    options: PoolOptions = {},
  ) {
    this.pools = new SqlitePool(db, options);
    this.vocabulary = new Vocabulary(
      async (lead) => {
        // fts5vocab answers a range scan; every term of the range is read with its document count.
        const next = String.fromCodePoint(lead.codePointAt(0)! + 1);
        const r = await sql<{
          term: string;
          doc: number;
        }>`select term, doc from search_vocab where term >= ${lead} and term < ${next}`.execute(
          this.db,
        );
        return r.rows;
      },
      () => this.pools.generation(),
    );
  }

  async search(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }> {
    if (q.communityIds.length === 0) return { hits: [], total: 0 };
    return hasFilters(q.filters) || q.newest ? this.filtered(q) : this.pooled(q);
  }

  /**
   * The hot path (no filters beyond the communities): everything it needs from every match is in
   * the FTS5 rowid (community, topic). One statement ranks the matches in the communities' rowid
   * ranges by weighted bm25 and keeps the best `pool` (FTS5's own top-N); a second counts the
   * distinct topics of all matches (rowid >> 20, no lookup; not needed when the pool holds every
   * match). Both share the work with a second thread (./sqlite-search-worker.ts). Boosts and
   * one-hit-per-topic then run over that pool only. The page is exact, not approximate: a post
   * outside the pool has bm25 at most the pool's last one, so its boosted relevance is at most
   * that × MAX_BOOST; every topic on the page must beat that bound, or the pool is widened
   * (`widened`: one more scan, at most).
   */
  private async pooled(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }> {
    const nos = await communityNumbers(this.db, q.communityIds);
    if (nos.length === 0) return { hits: [], total: 0 };
    const match = matchExpression(q.query);
    const pool = Math.max(POOL, q.limit * 16);
    const { rows, complete, facts, total, answers } = await this.pools.pool(match, nos, pool);
    const page = await pageOf(
      facts.hits,
      q,
      complete ? -Infinity : upperBound(rows[rows.length - 1]!.s, MAX_BOOST),
      facts.outside,
      answers,
    );
    if (page) return { hits: await pageDetails(this.db, page), total };
    if (complete) throw new Error('search: a complete pool must give an exact page');
    return {
      hits: await pageDetails(this.db, await this.pools.widened(match, nos, q, pool)),
      total,
    };
  }

  async candidates(
    q: Omit<IndexQuery, 'after'>,
    pool: number,
  ): Promise<{ hits: PoolHit[]; total: number }> {
    if (q.communityIds.length === 0) return { hits: [], total: 0 };
    const nos = await communityNumbers(this.db, q.communityIds);
    if (nos.length === 0) return { hits: [], total: 0 };
    if (hasFilters(q.filters))
      return filteredCandidates(this.db, q, matchExpression(q.query), rangeCondition(nos), pool);
    const { facts, total, answers } = await this.pools.pool(matchExpression(q.query), nos, pool);
    return {
      hits: (await pageOf(facts.hits, q, -Infinity, facts.outside, answers, true)) ?? [],
      total,
    };
  }

  /** With filters (or by date): every match ranked (exact pages, keyset). */
  private async filtered(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }> {
    const range = await communityRange(this.db, q.communityIds);
    if (!range) return { hits: [], total: 0 };
    const match = matchExpression(q.query);
    const { hits, total } = await filteredPage(this.db, q, match, range);
    // Total for a page past the end (the windowed count is not available without rows).
    if (hits.length === 0 && q.after)
      return {
        hits,
        total: (await filteredPage(this.db, { ...q, after: undefined, limit: 1 }, match, range))
          .total,
      };
    return { hits, total };
  }

  async bare(q: ParsedQuery, limit: number): Promise<string[]> {
    const result = await sql<{ rowid: number }>`
      select rowid from search_fts where search_fts match ${matchExpression(q)}
      order by bm25(search_fts, ${sql.lit(SQLITE_WEIGHTS[0])}, ${sql.lit(SQLITE_WEIGHTS[1])}, ${sql.lit(SQLITE_WEIGHTS[2])}) limit ${limit}`.execute(
      this.db,
    );
    return result.rows.map((r) => String(r.rowid));
  }

  /** One statement for all words: a lookup (EXISTS) per word in the communities' rowid range. */
  async unmatched(words: string[], communityIds: string[]): Promise<string[]> {
    if (words.length === 0) return [];
    const range = await communityRange(this.db, communityIds);
    if (!range) return [...words];
    const r = await sql<{ i: number }>`
      select j.key as i from json_each(${JSON.stringify(words.map(quote))}) j
      where not exists (select 1 from search_fts where search_fts match j.value and ${range})`.execute(
      this.db,
    );
    return r.rows.map((x) => words[Number(x.i)]!);
  }

  /**
   * Terms starting with the word's first letter, or its second (a typo in the first letter, or the
   * first two swapped), within one edit: candidates from the cached vocabulary (one fts5vocab range
   * scan per first letter, re-read when stale, see ./vocabulary.ts), which spans every community;
   * each candidate is then counted in the searched communities only (capped), and ordered by that.
   */
  async corrections(word: string, communityIds: string[], max = 3): Promise<string[]> {
    const range = await communityRange(this.db, communityIds);
    if (!range) return [];
    return this.vocabulary.corrections(word, max, async (terms) => {
      const counted: [string, number][] = [];
      for (const t of terms) {
        const r = await sql<{ n: number }>`
          select count(*) as n from (select 1 from search_fts where search_fts match ${quote(t)} and ${range} limit ${CORRECTION_COUNT_CAP})`.execute(
          this.db,
        );
        const n = Number(r.rows[0]?.n ?? 0);
        if (n > 0) counted.push([t, n]);
      }
      return counted.sort((a, b) => b[1] - a[1]).map(([t]) => t);
    });
  }

  /** The typo-correction vocabulary of every first letter and digit (one fts5vocab range scan each). */
  async warm(): Promise<void> {
    await this.vocabulary.warm([...'abcdefghijklmnopqrstuvwxyz0123456789']);
  }

  cacheStats(): Record<string, number> {
    const v = this.vocabulary.stats();
    let classIds = 0;
    for (const c of this.pools.classCache.values())
      classIds += c.solvedTopics.size + c.answers.size;
    return {
      vocabularySlices: v.slices,
      vocabularyTerms: v.terms,
      vocabularyBytes: v.bytes,
      classEntries: this.pools.classCache.size,
      classIds,
    };
  }
  async verify(): Promise<IndexReport> {
    return verifySqliteIndex(this.db);
  }
}
