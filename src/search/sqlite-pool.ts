// The SQLite index's pool of best matches, the hot path of a search without filters: the best N
// posts by the search's rank, their facts and boosts (search_facts, migration 0023), and the exact
// topic total. On a file a worker thread shares the work (./sqlite-search-worker.ts): it ranks and
// counts part of a large community, or counts while the pool is ranked.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import { TtlCache } from './vocabulary.ts';
import type { Scoped } from './sqlite-filtered.ts';
import { SLOT_BITS, communitySpan, rankExpression, type RowidScope } from './sqlite-rowids.ts';
import { searchWorkerOf, type SearchWorker } from './sqlite-search-worker.ts';
import { boosted, type PoolHit } from './index.ts';

/** The recency boost's 30 years, in days, as the filtered SQL divides them. */
const SPAN_DAYS = 10957;

/** The most a post of engine relevance `s` can score with boosts of at most `boost` (≥ 1). */
export function upperBound(s: number, boost: number): number {
  return s > 0 ? s * boost : s;
}

/** A pool's boosted hits, and its topics whose accepted answer is outside it (post id, FTS5 rowid). */
type PoolFacts = {
  hits: PoolHit[];
  outside: Map<string, string>;
  outsideRowid: Map<string, number>;
};

type Ranked = { rowid: number; s: number };

/** A search as the pool ranks it: its MATCH text, scope (and its condition) and rank. */
export type PoolSearch = Scoped & { scope: RowidScope };

/**
 * A community with fewer topics is ranked on one thread, the worker only counting: handing a part
 * over costs more than it saves below this (measured end to end, p50: at 8,900 topics the two
 * parts took 14.5 ms against 12.3 ms; at 22,000 topics 21.9 ms against 23.8 ms).
 */
export const SPLIT_FROM_TOPICS = 20_000;

export type PoolOptions = {
  /** From how many topics a community is ranked in two parts at once (default SPLIT_FROM_TOPICS). */
  splitFromTopics?: number;
  /** Told why the worker failed (its work is then done on this thread for a while). */
  onWorkerFailure?: (reason: string) => void;
  /** 'fts5': rank with FTS5's own bm25 even where Hamlet's ranking function loads (tests). */
  ranking?: 'hamlet' | 'fts5';
};

/** The distinct topics of these matches (a rowid says its topic). */
const topicsOf = (rows: Ranked[]) =>
  new Set(rows.map((r) => Math.floor(r.rowid / 2 ** SLOT_BITS))).size;

/** The best `size` of two parts' best, in the ranking's order: score down, then rowid up. */
function merged(a: Ranked[], b: Ranked[], size: number): Ranked[] {
  return [...a, ...b].sort((x, y) => y.s - x.s || x.rowid - y.rowid).slice(0, size);
}

export class SqlitePool {
  /** The second thread's share of the work (a file-backed database only). */
  private readonly worker: SearchWorker | undefined;
  /** Community number → its highest topic number (where to split), read at most once a minute. */
  private readonly topicCounts = new TtlCache<number>(1_000, 60_000);

  private readonly splitFromTopics: number;

  constructor(
    private readonly db: Kysely<Database>,
    options: PoolOptions & { library?: string } = {},
  ) {
    this.worker = searchWorkerOf(db, options.onWorkerFailure, options.library);
    this.splitFromTopics = options.splitFromTopics ?? SPLIT_FROM_TOPICS;
  }

  /**
   * The best `size` matches (ranked) of the search, whether they are every match (complete), their
   * facts, the exact topic total, and which accepted answers outside them match (answers, asked
   * lazily): what a page or a head is cut from. With the worker up, one large community is ranked
   * in two parts at once (halves()); otherwise the worker counts while this thread ranks. A
   * complete pool needs no count (its topics are the total, and no answer outside it matches).
   */
  async pool(s: PoolSearch, size: number) {
    const parts =
      s.scope.kind === 'communities' && s.scope.nos.length === 1
        ? await this.halves(s, s.scope.nos[0]!, size)
        : undefined;
    const counting = parts ? undefined : this.worker?.count(s.match, s.scope);
    const rows = parts?.rows ?? (await this.ranked(s, s.where, size));
    const complete = rows.length < size;
    const facts = await this.poolFacts(rows);
    if (complete)
      return {
        rows,
        complete,
        facts,
        total: topicsOf(rows),
        answers: async () => new Set<string>(),
      };
    const total =
      parts?.total ?? (counting ? await counting : undefined) ?? (await this.counted(s, s.where));
    return {
      rows,
      complete,
      facts,
      total,
      answers: (topicIds: string[]) => this.answersMatching(s.match, facts, topicIds),
    };
  }

  /**
   * Community `no`'s best `size` matches and topic total from two parts of its rowid range at
   * once: the worker ranks (and counts) the newer topics while this thread does the older ones.
   * A topic's posts share its rowid prefix, so no topic is in both parts and the totals add up;
   * both parts rank with the same statistics, so each part's scores are the ones a single ranking
   * gives. Undefined (rank it here) when the worker cannot take its part or fails.
   */
  private async halves(
    s: PoolSearch,
    no: number,
    size: number,
  ): Promise<{ rows: Ranked[]; total: number } | undefined> {
    if (!this.worker) return undefined;
    const topics = await this.topicCount(no);
    if (topics < this.splitFromTopics) return undefined;
    const [lo, hi] = communitySpan(no);
    const mid = lo + (Math.floor(topics / 2) + 1) * 2 ** SLOT_BITS;
    const theirs = this.worker.half(s.match, s.rank, mid, hi, size);
    if (!theirs) return undefined;
    const part = sql`search_fts.rowid between ${lo} and ${mid - 1}`;
    const mine = await this.ranked(s, part, size);
    const mineTotal = mine.length < size ? topicsOf(mine) : await this.counted(s, part);
    const other = await theirs;
    if (!other) return undefined;
    return { rows: merged(mine, other.rows, size), total: mineTotal + other.total };
  }

  /**
   * The community's highest topic number in the rowid layout. A stale one only moves where the
   * range is split (newer topics fall in the worker's part), so it is kept by time, not generation.
   */
  private async topicCount(no: number): Promise<number> {
    const known = this.topicCounts.get(String(no), '');
    if (known !== undefined) return known;
    const r = await sql<{
      topics: number | null;
    }>`select max(no) as topics from search_topics where community_no = ${no}`.execute(this.db);
    const topics = Number(r.rows[0]?.topics ?? 0);
    this.topicCounts.set(String(no), topics, '');
    return topics;
  }

  /** The best `pool` matches in `where` by the search's rank (FTS5's own top-N). */
  private async ranked(s: PoolSearch, where: RawBuilder<unknown>, pool: number): Promise<Ranked[]> {
    const ranked = await sql<{ rowid: number; s: number }>`
      select rowid, ${rankExpression(s.rank)} as s
      from search_fts where search_fts match ${s.match} and ${where}
      order by s desc, rowid limit ${pool}`.execute(this.db);
    return ranked.rows;
  }

  /**
   * The distinct topics of all matches in `where`, in-thread: one scan of the matches without a
   * rank, when the worker did not count (none started yet, which starts one; a transaction open;
   * it failed), or for this thread's part of a range.
   */
  private async counted(s: PoolSearch, where: RawBuilder<unknown>): Promise<number> {
    this.worker?.start();
    const r = await sql<{ total: number }>`
      select count(distinct search_fts.rowid >> ${sql.lit(SLOT_BITS)}) as total
      from search_fts where search_fts match ${s.match} and ${where}`.execute(this.db);
    return Number(r.rows[0]?.total ?? 0);
  }

  /** Rows this connection changed (triggers included) and commits by other connections: no scan. */
  async generation(): Promise<string> {
    const r = await sql<{
      c: number;
      v: number;
    }>`select total_changes() as c, (select data_version from pragma_data_version) as v`.execute(
      this.db,
    );
    return `${r.rows[0]!.c}:${r.rows[0]!.v}`;
  }

  /**
   * A pool's hits with their boosts, from each match's search_facts row (migration 0023: one small
   * row, no post or topic read), and the topics whose accepted answer is not in the pool (topic →
   * the answer's post id and rowid; looked up only for topics solved by another post).
   */
  private async poolFacts(rows: { rowid: number; s: number }[]): Promise<PoolFacts> {
    const out: PoolFacts = { hits: [], outside: new Map(), outsideRowid: new Map() };
    if (rows.length === 0) return out;
    const facts = await sql<{
      rowid: number;
      postId: string;
      topicId: string;
      communityId: string;
      createdAt: string;
      solution: number;
      solutionPostId: string | null;
      solutionRowid: number | null;
    }>`
      select x.rowid, x.post_id as "postId", x.topic_id as "topicId", x.community_id as "communityId", x.created_at as "createdAt", x.solution,
        case when x.solution = 1 then (select t.solution_post_id from topics t where t.id = x.topic_id) end as "solutionPostId",
        case when x.solution = 1 then (select s.rowid from topics t join search_rows s on s.post_id = t.solution_post_id where t.id = x.topic_id) end as "solutionRowid"
      from json_each(${JSON.stringify(rows.map((r) => r.rowid))}) j cross join search_facts x on x.rowid = j.value`.execute(
      this.db,
    );
    const byRowid = new Map(facts.rows.map((f) => [Number(f.rowid), f]));
    const inPool = new Set(rows.map((r) => r.rowid));
    for (const r of rows) {
      const f = byRowid.get(r.rowid);
      if (!f) continue;
      const sol = Number(f.solution) === 2;
      out.hits.push({
        postId: f.postId,
        topicId: f.topicId,
        communityId: f.communityId,
        sol,
        raw: boosted(r.s, sol ? f.postId : f.solutionPostId, f.postId, f.createdAt, SPAN_DAYS),
      });
      if (f.solutionRowid !== null && f.solutionPostId && !inPool.has(Number(f.solutionRowid))) {
        out.outside.set(f.topicId, f.solutionPostId);
        out.outsideRowid.set(f.topicId, Number(f.solutionRowid));
      }
    }
    return out;
  }

  /**
   * Of these topics (accepted answer outside the pool), those whose answer matches: a rowid lookup
   * per answer, without a rank.
   */
  private async answersMatching(
    match: string,
    facts: PoolFacts,
    topicIds: string[],
  ): Promise<Set<string>> {
    const wanted = topicIds.map((t) => facts.outsideRowid.get(t)!);
    const r = await sql<{ rowid: number }>`
      select rowid from search_fts where search_fts match ${match} and rowid in (select value from json_each(${JSON.stringify(wanted)}))`.execute(
      this.db,
    );
    const matched = new Set(r.rows.map((x) => Number(x.rowid)));
    return new Set(topicIds.filter((t) => matched.has(facts.outsideRowid.get(t)!)));
  }
}
