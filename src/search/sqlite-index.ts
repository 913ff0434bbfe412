// SQLite FTS5: bm25() over (title, context, body), boosts and filters in the same statement.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { ParsedQuery } from './query.ts';
import { TtlCache, Vocabulary } from './vocabulary.ts';
import { filteredCandidates, filteredPage, SQLITE_WEIGHTS } from './sqlite-filtered.ts';

export { SQLITE_WEIGHTS };
import {
  RECENCY_WEIGHT,
  SOLUTION_BOOST,
  SOLVED_TOPIC_BOOST,
  MAX_BOOST,
  POOL,
  boosted,
  hasFilters,
  pageDetails,
  pageOf,
  type IndexHit,
  type IndexQuery,
  type IndexReport,
  type PoolHit,
  type SearchIndex,
} from './index.ts';

/** FTS5 rowid layout (migration 0009_search_speed): community_no << 42 | topic_no << 20 | slot. */
const SLOT_BITS = 20;
const COMMUNITY_SHIFT = 42;
const COMMUNITY_SPAN = 2 ** COMMUNITY_SHIFT;
/** The recency boost's 30 years, in days, as the filtered SQL divides them. */
const SPAN_DAYS = 10957;

/** Documents counted per typo-correction candidate to order the candidates. */
const CORRECTION_COUNT_CAP = 1000;

const quote = (w: string) => `"${w.replace(/"/g, '""')}"`;

/** FTS5 MATCH text. Every word is a double-quoted string (words are letters/digits only anyway). */
export function matchExpression(q: ParsedQuery): string {
  const groups = q.terms.map((t) => {
    const alts = [t.word, ...t.alternatives].map(quote);
    return alts.length === 1 ? alts[0]! : `(${alts.join(' OR ')})`;
  });
  const phrases = q.phrases.map((p) => quote(p.join(' ')));
  let positive: string;
  if (phrases.length === 0) positive = groups.join(' OR ');
  else if (groups.length === 0) positive = phrases.join(' AND ');
  // Phrases are required; the other words only add to the rank (OR-ed with the phrases).
  else positive = `(${phrases.join(' AND ')}) AND (${[...groups, ...phrases].join(' OR ')})`;
  if (q.excluded.length) positive = `(${positive}) NOT (${q.excluded.map(quote).join(' OR ')})`;
  return positive;
}

/** The most a post of engine relevance `s` can score with boosts of at most `boost` (≥ 1). */
function upperBound(s: number, boost: number): number {
  return s > 0 ? s * boost : s;
}

type Classes = { solvedTopics: Set<number>; answers: Set<number>; recency: number };
/** A pool's boosted hits, and its topics whose accepted answer is outside it (post id, FTS5 rowid). */
type PoolFacts = {
  hits: PoolHit[];
  outside: Map<string, string>;
  outsideRowid: Map<string, number>;
};

export class SqliteSearchIndex implements SearchIndex {
  readonly engine = 'sqlite' as const;
  /** Index terms by first character with document frequencies, for typo correction (./vocabulary.ts). */
  readonly vocabulary: Vocabulary;
  /** Per set of communities: solved topics, accepted answers, newest post's recency (widened()). */
  private readonly classCache = new TtlCache<Classes>(4, 60_000);
  constructor(readonly db: Kysely<Database>) {
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
      () => this.generation(),
    );
  }

  async search(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }> {
    if (q.communityIds.length === 0) return { hits: [], total: 0 };
    return hasFilters(q.filters) ? this.filtered(q) : this.pooled(q);
  }

  /**
   * The hot path (no filters beyond the communities): everything it needs from every match is in
   * the FTS5 rowid (community, topic). One statement ranks the matches in the communities' rowid
   * ranges by weighted bm25 and keeps the best `pool` (FTS5's own top-N); a second counts the
   * distinct topics of all matches (rowid >> 20, no lookup; not needed when the pool holds every
   * match). Boosts and one-hit-per-topic then run over that pool only. The page is exact, not
   * approximate: a post outside the pool has bm25 at most the pool's last one, so its boosted
   * relevance is at most that × MAX_BOOST; every topic on the page must beat that bound, or the
   * pool is widened (`widened`: one more scan, at most).
   */
  private async pooled(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }> {
    const range = await this.communityRange(q.communityIds);
    if (!range) return { hits: [], total: 0 };
    const match = matchExpression(q.query);
    const pool = Math.max(POOL, q.limit * 16);
    const { rows, complete, facts, total, answers } = await this.pool(match, range, pool);
    const page = await pageOf(
      facts.hits,
      q,
      complete ? -Infinity : upperBound(rows[rows.length - 1]!.s, MAX_BOOST),
      facts.outside,
      answers,
    );
    if (page) return { hits: await pageDetails(this.db, page), total };
    if (complete) throw new Error('search: a complete pool must give an exact page');
    return { hits: await pageDetails(this.db, await this.widened(match, range, q, pool)), total };
  }

  async candidates(
    q: Omit<IndexQuery, 'after'>,
    pool: number,
  ): Promise<{ hits: PoolHit[]; total: number }> {
    if (q.communityIds.length === 0) return { hits: [], total: 0 };
    const range = await this.communityRange(q.communityIds);
    if (!range) return { hits: [], total: 0 };
    if (hasFilters(q.filters))
      return filteredCandidates(this.db, q, matchExpression(q.query), range, pool);
    const { facts, total, answers } = await this.pool(matchExpression(q.query), range, pool);
    return {
      hits: (await pageOf(facts.hits, q, -Infinity, facts.outside, answers, true)) ?? [],
      total,
    };
  }

  /**
   * The best `size` matches (ranked), whether they are every match (complete), their facts, the
   * exact topic total and which accepted answers outside them match: what a page or a head is cut from.
   */
  private async pool(match: string, range: RawBuilder<unknown>, size: number) {
    const rows = await this.ranked(match, range, size);
    const complete = rows.length < size;
    const facts = await this.poolFacts(rows);
    return { rows, complete, facts, ...(await this.counted(match, range, rows, facts, complete)) };
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
   * The distinct topics of all matches, and which of the pool's accepted answers outside the pool
   * match (pageOf's `solutions`), both in one scan of the matches without bm25: testing the
   * answers apart costs FTS5 a fresh seek of every query word per answer. A complete pool (it
   * holds every match) needs no scan: its topics are the total, and no answer outside it matches.
   */
  private async counted(
    match: string,
    range: RawBuilder<unknown>,
    rows: { rowid: number }[],
    facts: PoolFacts,
    complete: boolean,
  ): Promise<{ total: number; answers: (topicIds: string[]) => Promise<Set<string>> }> {
    if (complete)
      return {
        total: new Set(rows.map((r) => Math.floor(r.rowid / 2 ** SLOT_BITS))).size,
        answers: async () => new Set(),
      };
    const wanted = [...facts.outsideRowid.values()];
    const r = await sql<{ total: number; answers: string | null }>`
      select count(distinct search_fts.rowid >> ${sql.lit(SLOT_BITS)}) as total,
        ${wanted.length ? sql`json_group_array(search_fts.rowid) filter (where search_fts.rowid in (select value from json_each(${JSON.stringify(wanted)})))` : sql`null`} as answers
      from search_fts where search_fts match ${match} and ${range}`.execute(this.db);
    const matched = new Set((JSON.parse(r.rows[0]?.answers ?? '[]') as number[]).map(Number));
    return {
      total: Number(r.rows[0]?.total ?? 0),
      answers: async (topicIds) =>
        new Set(topicIds.filter((t) => matched.has(facts.outsideRowid.get(t)!))),
    };
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
  private async widened(
    match: string,
    range: RawBuilder<unknown>,
    q: IndexQuery,
    start: number,
  ): Promise<PoolHit[]> {
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
  private async generation(): Promise<string> {
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

  /** The FTS5 rowid condition for posts of these communities; undefined when none has any post. */
  private async communityRange(ids: string[]): Promise<RawBuilder<unknown> | undefined> {
    if (ids.length === 0) return undefined;
    const r = await sql<{
      no: number;
    }>`select no from search_communities where community_id in (${sql.join(ids)}) order by no`.execute(
      this.db,
    );
    const nos = r.rows.map((x) => Number(x.no));
    if (nos.length === 0) return undefined;
    return nos.length === 1
      ? sql`search_fts.rowid between ${nos[0]! * COMMUNITY_SPAN} and ${(nos[0]! + 1) * COMMUNITY_SPAN - 1}`
      : sql`(search_fts.rowid >> ${sql.lit(COMMUNITY_SHIFT)}) in (${sql.join(nos)})`;
  }

  /** With filters: every match ranked (exact pages, keyset). */
  private async filtered(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }> {
    const range = await this.communityRange(q.communityIds);
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
    const range = await this.communityRange(communityIds);
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
    const range = await this.communityRange(communityIds);
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
    for (const c of this.classCache.values()) classIds += c.solvedTopics.size + c.answers.size;
    return {
      vocabularySlices: v.slices,
      vocabularyTerms: v.terms,
      vocabularyBytes: v.bytes,
      classEntries: this.classCache.size,
      classIds,
    };
  }

  async verify(): Promise<IndexReport> {
    const one = async (query: RawBuilder<{ n: number }>) =>
      Number((await query.execute(this.db)).rows[0]?.n ?? 0);
    const posts = await one(sql`select count(*) as n from posts`);
    const indexed = await one(sql`select count(*) as n from search_fts`);
    const missing = await one(
      sql`select count(*) as n from posts p where not exists (select 1 from search_rows r where r.post_id = p.id)`,
    );
    const orphans =
      (await one(
        sql`select count(*) as n from search_rows r where not exists (select 1 from posts p where p.id = r.post_id)`,
      )) + Math.abs(indexed - (await one(sql`select count(*) as n from search_rows`)));
    const stale = await one(sql`
      select count(*) as n from search_rows r join search_fts f on f.rowid = r.rowid join posts p on p.id = r.post_id join topics t on t.id = p.topic_id
      where f.body is not p.body
         or f.title is not (case when p.position = 1 then t.title else '' end)
         or f.context is not (case when p.position = 1 then '' else t.title end)
         or (r.rowid >> ${sql.lit(SLOT_BITS)}) is not (
              select (st.community_no << ${sql.lit(COMMUNITY_SHIFT - SLOT_BITS)}) | st.no from search_topics st
              join search_communities sc on sc.no = st.community_no and sc.community_id = p.community_id
              where st.topic_id = p.topic_id)`);
    // The filter columns kept beside the index (migration 0023).
    const staleFacts = await one(sql`
      select count(*) as n from search_rows r left join search_facts x on x.rowid = r.rowid
        left join posts p on p.id = r.post_id left join topics t on t.id = p.topic_id
      where x.rowid is null or x.post_id is not p.id or x.topic_id is not p.topic_id or x.community_id is not p.community_id
         or x.created_at is not p.created_at or x.position is not p.position or x.author is not lower(p.author_name)
         or x.category_id is not t.category_id
         or x.solution is not (case when t.solution_post_id = p.id then 2 when t.solution_post_id is not null then 1 else 0 end)`);
    return { posts, indexed, missing, stale: stale + staleFacts, orphans };
  }
}
