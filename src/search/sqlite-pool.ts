// The SQLite index's pool of best matches, the hot path of a search without filters: the best N
// posts by weighted bm25, their facts and boosts (search_facts, migration 0023), the exact topic
// total (on a file, counted by a worker thread while the pool is ranked: ./sqlite-count-worker.ts),
// and the wider scan when the pool was too shallow for an exact page. The communities' classes
// are cached per set of communities while the database does not change (its generation).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import { TtlCache } from './vocabulary.ts';
import { SQLITE_WEIGHTS } from './sqlite-filtered.ts';
import { COMMUNITY_SHIFT, SLOT_BITS, rangeCondition } from './sqlite-rowids.ts';
import { countWorkerOf, type CountWorker } from './sqlite-count-worker.ts';
import {
  RECENCY_WEIGHT,
  SOLUTION_BOOST,
  SOLVED_TOPIC_BOOST,
  boosted,
  pageOf,
  type IndexQuery,
  type PoolHit,
} from './index.ts';

/** The recency boost's 30 years, in days, as the filtered SQL divides them. */
const SPAN_DAYS = 10957;

/** The most a post of engine relevance `s` can score with boosts of at most `boost` (≥ 1). */
export function upperBound(s: number, boost: number): number {
  return s > 0 ? s * boost : s;
}

type Classes = { solvedTopics: Set<number>; answers: Set<number>; recency: number };
/** A pool's boosted hits, and its topics whose accepted answer is outside it (post id, FTS5 rowid). */
type PoolFacts = {
  hits: PoolHit[];
  outside: Map<string, string>;
  outsideRowid: Map<string, number>;
};

export class SqlitePool {
  /** Per set of communities: solved topics, accepted answers, newest post's recency (widened()). */
  readonly classCache = new TtlCache<Classes>(4, 60_000);
  /** The topic totals' worker (a file-backed database only). */
  private readonly counter: CountWorker | undefined;

  constructor(private readonly db: Kysely<Database>) {
    this.counter = countWorkerOf(db);
  }

  /**
   * The best `size` matches (ranked) in the communities numbered `nos`, whether they are every
   * match (complete), their facts, the exact topic total, and which accepted answers outside them
   * match (answers, asked lazily): what a page or a head is cut from. The total is asked of the
   * worker before the ranking runs and awaited after it; a complete pool needs no count (its
   * topics are the total, and no answer outside it matches).
   */
  async pool(match: string, nos: number[], size: number) {
    const range = rangeCondition(nos);
    const counting = this.counter?.count(match, nos);
    const rows = await this.ranked(match, range, size);
    const complete = rows.length < size;
    const facts = await this.poolFacts(rows);
    if (complete)
      return {
        rows,
        complete,
        facts,
        total: new Set(rows.map((r) => Math.floor(r.rowid / 2 ** SLOT_BITS))).size,
        answers: async () => new Set<string>(),
      };
    const total = (counting ? await counting : undefined) ?? (await this.counted(match, range));
    return {
      rows,
      complete,
      facts,
      total,
      answers: (topicIds: string[]) => this.answersMatching(match, facts, topicIds),
    };
  }

  /** The best `pool` matches by weighted bm25 (FTS5's own top-N). */
  private async ranked(
    match: string,
    range: RawBuilder<unknown>,
    pool: number,
  ): Promise<{ rowid: number; s: number }[]> {
    const [w1, w2, w3] = SQLITE_WEIGHTS;
    const ranked = await sql<{ rowid: number; s: number }>`
      select rowid, -bm25(search_fts, ${sql.lit(w1)}, ${sql.lit(w2)}, ${sql.lit(w3)}) as s
      from search_fts where search_fts match ${match} and ${range}
      order by s desc, rowid limit ${pool}`.execute(this.db);
    return ranked.rows;
  }

  /**
   * The distinct topics of all matches, in-thread: one scan of the matches without bm25, when the
   * worker did not count (none up yet, which starts one; a transaction open; it failed).
   */
  private async counted(match: string, range: RawBuilder<unknown>): Promise<number> {
    this.counter?.start();
    const r = await sql<{ total: number }>`
      select count(distinct search_fts.rowid >> ${sql.lit(SLOT_BITS)}) as total
      from search_fts where search_fts match ${match} and ${range}`.execute(this.db);
    return Number(r.rows[0]?.total ?? 0);
  }

  /**
   * The pool was too shallow (flat scores: the page does not beat the pool's last bm25 × MAX_BOOST).
   * One more scan reads every match's rowid and bm25; the rowid says the topic, and one lookup of
   * the communities' solved topics says which matches are accepted answers (× SOLUTION_BOOST at
   * most) or replies in a solved topic (× SOLVED_TOPIC_BOOST): each match gets its own upper bound
   * (class boost × the recency boost of the communities' newest post), much tighter than
   * MAX_BOOST for most. Matches are taken in that order, ×4 more each time (no rescan), until the
   * page beats the next one's bound.
   */
  async widened(match: string, nos: number[], q: IndexQuery, start: number): Promise<PoolHit[]> {
    const range = rangeCondition(nos);
    const [w1, w2, w3] = SQLITE_WEIGHTS;
    const all = await sql<{ rowid: number; s: number }>`
      select rowid, -bm25(search_fts, ${sql.lit(w1)}, ${sql.lit(w2)}, ${sql.lit(w3)}) as s
      from search_fts where search_fts match ${match} and ${range}`.execute(this.db);
    const { solvedTopics, answers, recency } = await this.classes(q.communityIds);
    const rows = all.rows.map((r) => {
      const rowid = Number(r.rowid);
      const boost = answers.has(rowid)
        ? SOLUTION_BOOST
        : solvedTopics.has(Math.floor(rowid / 2 ** SLOT_BITS))
          ? SOLVED_TOPIC_BOOST
          : 1;
      return { rowid, s: r.s, ub: upperBound(r.s, boost * recency) };
    });
    rows.sort((a, b) => b.ub - a.ub);
    for (let k = start; ; k *= 4) {
      const complete = k >= rows.length;
      const facts = await this.poolFacts(rows.slice(0, k));
      const page = await pageOf(
        facts.hits,
        q,
        complete ? -Infinity : rows[k]!.ub,
        facts.outside,
        (topicIds) => this.answersMatching(match, facts, topicIds),
      );
      if (page) return page;
      if (complete) throw new Error('search: a complete pool must give an exact page');
    }
  }

  /**
   * The communities' solved topics (as rowid >> 20) and accepted answers (rowids), and the largest
   * recency boost any of their posts has. Cached while the database does not change (generation).
   */
  private async classes(communityIds: string[]): Promise<Classes> {
    const key = [...communityIds].sort().join(',');
    const generation = await this.generation();
    const cached = this.classCache.get(key, generation);
    if (cached) return cached;
    const solved = await sql<{ topic: number; sol: number | null }>`
      select (st.community_no << ${sql.lit(COMMUNITY_SHIFT - SLOT_BITS)}) | st.no as topic, s.rowid as sol
      from topics t join search_topics st on st.topic_id = t.id left join search_rows s on s.post_id = t.solution_post_id
      where t.community_id in (${sql.join(communityIds)}) and t.solution_post_id is not null`.execute(
      this.db,
    );
    const newest = await sql<{ m: string | null }>`
      select max((select max(p.created_at) from posts p where p.community_id = j.value)) as m
      from json_each(${JSON.stringify(communityIds)}) j`.execute(this.db);
    const m = newest.rows[0]?.m;
    // As boosted() computes it for the newest post; the full boost when the date is not readable.
    const days = m ? Date.parse(m) / 86_400_000 - 10_957 : NaN;
    const recency = Number.isFinite(days)
      ? 1.0 + RECENCY_WEIGHT * Math.max(0, Math.min(1, days / SPAN_DAYS))
      : 1.0 + RECENCY_WEIGHT;
    const classes: Classes = {
      solvedTopics: new Set(solved.rows.map((r) => Number(r.topic))),
      answers: new Set(solved.rows.flatMap((r) => (r.sol === null ? [] : [Number(r.sol)]))),
      recency,
    };
    this.classCache.set(key, classes, generation);
    return classes;
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
   * the answer's post id and rowid; read only for topics solved by another post).
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
        t.solution_post_id as "solutionPostId", s.rowid as "solutionRowid"
      from search_facts x left join topics t on x.solution = 1 and t.id = x.topic_id left join search_rows s on s.post_id = t.solution_post_id
      where x.rowid in (select value from json_each(${JSON.stringify(rows.map((r) => r.rowid))}))`.execute(
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
   * per answer, without bm25 (whose document counts FTS5 would recompute for every value).
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
