// SQLite FTS5: bm25 over (title, context, body) with the search's own statistics (hamlet_bm25:
// ./sqlite-ranking.ts, ./sqlite-statistics.ts), boosts and filters in the same statement. The
// index's entry points; the pool of best matches is ./sqlite-pool.ts, filtered pages
// ./sqlite-filtered.ts, the rowid layout, MATCH text and scope ./sqlite-rowids.ts.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { ParsedQuery } from './query.ts';
import { Vocabulary } from './vocabulary.ts';
import { filteredCandidates, filteredPage, type Scoped } from './sqlite-filtered.ts';
import {
  SQLITE_WEIGHTS,
  matchExpression,
  matchQuery,
  quote,
  rowidScope,
  scopeCondition,
  type Rank,
  type RowidScope,
} from './sqlite-rowids.ts';
import { SqlitePool, upperBound, type PoolOptions, type PoolSearch } from './sqlite-pool.ts';
import { SqliteStatistics } from './sqlite-statistics.ts';
import { loadRanking, type SqliteRanking } from './sqlite-ranking.ts';
import { verifySqliteIndex } from './sqlite-verify.ts';
import {
  MAX_BOOST,
  POOL,
  hasFilters,
  pageDetails,
  pageOf,
  type Frequencies,
  type IndexHit,
  type IndexQuery,
  type IndexReport,
  type PoolHit,
  type SearchIndex,
  type SearchScope,
} from './index.ts';

export { SQLITE_WEIGHTS, matchExpression };

/** Documents counted per typo-correction candidate to order the candidates. */
const CORRECTION_COUNT_CAP = 1000;

export class SqliteSearchIndex implements SearchIndex {
  readonly engine = 'sqlite' as const;
  /** Index terms by first character with document frequencies, for typo correction (./vocabulary.ts). */
  readonly vocabulary: Vocabulary;
  /** How this connection ranks: Hamlet's bm25 with each search's own statistics, or FTS5's. */
  readonly ranking: SqliteRanking;
  /** The best matches of a search without filters, and the caches behind them. */
  private readonly pools: SqlitePool;
  /** Each scope's size and its phrases' document counts (hamlet_bm25's statistics). */
  private readonly statistics: SqliteStatistics;
  constructor(
    readonly db: Kysely<Database>,
    options: PoolOptions = {},
  ) {
    this.ranking = loadRanking(db, options.ranking);
    this.pools = new SqlitePool(db, {
      ...options,
      library: this.ranking.kind === 'hamlet' ? this.ranking.library : undefined,
    });
    this.statistics = new SqliteStatistics(db);
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

  /** The search's MATCH text, scope and rank (with the scope's statistics); undefined: nothing to search. */
  private async scoped(q: Pick<IndexQuery, 'scope' | 'query'>): Promise<PoolSearch | undefined> {
    const scope = await rowidScope(this.db, q.scope);
    if (!scope) return undefined;
    const { text, phrases } = matchQuery(q.query);
    return {
      match: text,
      scope,
      where: scopeCondition(scope),
      rank: await this.rank(scope, phrases),
    };
  }

  private async rank(scope: RowidScope, phrases: string[]): Promise<Rank> {
    if (this.ranking.kind === 'fts5') return { kind: 'fts5' };
    return { kind: 'hamlet', args: await this.statistics.rankArguments(scope, phrases) };
  }

  async search(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }> {
    const s = await this.scoped(q);
    if (!s) return { hits: [], total: 0 };
    return hasFilters(q.filters) || q.newest ? this.filtered(q, s) : this.pooled(q, s);
  }

  /**
   * The hot path (no filters beyond the scope): everything it needs from every match is in the
   * FTS5 rowid (community, topic). One statement ranks the matches in the scope by the search's
   * rank and keeps the best `pool` (FTS5's own top-N); a second counts the distinct topics of all
   * matches (rowid >> 20, no lookup; not needed when the pool holds every match). Both share the
   * work with a second thread (./sqlite-search-worker.ts). Boosts and one-hit-per-topic then run
   * over that pool only. The page is exact, not approximate: a post outside the pool has a rank at
   * most the pool's last one, so its boosted relevance is at most that × MAX_BOOST; every topic on
   * the page must beat that bound, or every match is ranked exactly (the filtered path's statement).
   */
  private async pooled(q: IndexQuery, s: PoolSearch): Promise<{ hits: IndexHit[]; total: number }> {
    const pool = Math.max(POOL, q.limit * 16);
    const { rows, complete, facts, total, answers } = await this.pools.pool(s, pool);
    const page = await pageOf(
      facts.hits,
      q,
      complete ? -Infinity : upperBound(rows[rows.length - 1]!.s, MAX_BOOST),
      facts.outside,
      answers,
    );
    if (page) return { hits: await pageDetails(this.db, page), total };
    if (complete) throw new Error('search: a complete pool must give an exact page');
    return { hits: (await this.filtered(q, s)).hits, total };
  }

  async candidates(
    q: Omit<IndexQuery, 'after'>,
    pool: number,
  ): Promise<{ hits: PoolHit[]; total: number }> {
    const s = await this.scoped(q);
    if (!s) return { hits: [], total: 0 };
    if (hasFilters(q.filters)) return filteredCandidates(this.db, q, s, pool);
    const { facts, total, answers } = await this.pools.pool(s, pool);
    return {
      hits: (await pageOf(facts.hits, q, -Infinity, facts.outside, answers, true)) ?? [],
      total,
    };
  }

  /** With filters (or by date): every match ranked (exact pages, keyset). */
  private async filtered(q: IndexQuery, s: Scoped): Promise<{ hits: IndexHit[]; total: number }> {
    const { hits, total } = await filteredPage(this.db, q, s);
    // Total for a page past the end (the windowed count is not available without rows).
    if (hits.length === 0 && q.after)
      return {
        hits,
        total: (await filteredPage(this.db, { ...q, after: undefined, limit: 1 }, s)).total,
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

  /**
   * The words none of the scope's documents holds: their document counts in the scope, which the
   * ranking then reads too (one statement for all of them, kept a short while: ./sqlite-statistics.ts).
   */
  async unmatched(words: string[], scope: SearchScope): Promise<string[]> {
    if (words.length === 0) return [];
    const rowids = await rowidScope(this.db, scope);
    if (!rowids) return [...words];
    const counted = await this.statistics.frequencies(rowids, words);
    return words.filter((w) => counted.df(w) === 0);
  }

  /**
   * Terms starting with the word's first letter, or its second (a typo in the first letter, or the
   * first two swapped), within one edit: candidates from the cached vocabulary (one fts5vocab range
   * scan per first letter, re-read when stale, see ./vocabulary.ts), which spans every community;
   * the candidates are then counted in the scope only (capped; one statement for all of them), and
   * ordered by that.
   */
  async corrections(word: string, scope: SearchScope, max = 3): Promise<string[]> {
    const rowids = await rowidScope(this.db, scope);
    if (!rowids) return [];
    const where = scopeCondition(rowids);
    return this.vocabulary.corrections(word, max, async (terms) => {
      if (terms.length === 0) return [];
      const counts = terms.map(
        (t, i) =>
          sql`(select count(*) from (select 1 from search_fts where search_fts match ${quote(t)} and ${where} limit ${CORRECTION_COUNT_CAP})) as ${sql.ref(`n${i}`)}`,
      );
      const r = await sql<Record<string, number>>`select ${sql.join(counts)}`.execute(this.db);
      const row = r.rows[0]!;
      return terms
        .map((t, i) => [t, Number(row[`n${i}`] ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([t]) => t);
    });
  }

  async wordFrequencies(words: string[], scope: SearchScope): Promise<Frequencies> {
    const rowids = await rowidScope(this.db, scope);
    if (!rowids) return { topics: 0, df: () => 1 };
    return this.statistics.frequencies(rowids, words);
  }

  /** The typo-correction vocabulary of every first letter and digit (one fts5vocab range scan each). */
  async warm(): Promise<void> {
    await this.vocabulary.warm([...'abcdefghijklmnopqrstuvwxyz0123456789']);
  }

  cacheStats(): Record<string, number> {
    const v = this.vocabulary.stats();
    const st = this.statistics.stats();
    return {
      vocabularySlices: v.slices,
      vocabularyTerms: v.terms,
      vocabularyBytes: v.bytes,
      statisticsScopes: st.sizes,
      statisticsCounts: st.counts,
    };
  }
  async verify(): Promise<IndexReport> {
    return verifySqliteIndex(this.db);
  }
}
