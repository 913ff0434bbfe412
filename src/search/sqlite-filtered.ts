// SQLite searches with filters beyond the scope (category, tags, solved_only, source_types, author,
// since, until): every match in the scope with the columns the filters test (kept beside the
// index, migration 0023), in one statement. Used by ./sqlite-index.ts.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import { filterConditions } from './filter-conditions.ts';
import {
  RECENCY_WEIGHT,
  SOLUTION_BOOST,
  SOLVED_TOPIC_BOOST,
  topicPage,
  type IndexHit,
  type IndexQuery,
  type PoolHit,
} from './index.ts';
import { SLOT_BITS, rankExpression, type Rank } from './sqlite-rowids.ts';

/**
 * With filters, the matches in the search's scope (`s.where`: its rowid condition) that pass the
 * filters, tested on search_facts (migration 0023: one small row per match, no post or topic
 * read): the FTS5 rowid (tie), engine relevance (rel) and solution (2: the accepted answer). The
 * rest of a match's facts is read for the rows that need it (boosts, ids: see `facts`). CROSS
 * JOIN fixes the join order (SQLite's rule): the FTS5 match first, then each match's facts.
 */
function filteredHits(q: Omit<IndexQuery, 'after'>, s: Scoped): RawBuilder<unknown> {
  const where = filterConditions(q.filters, q.scope, 'x', (iso) => sql`${iso}`);
  return sql`
      select search_fts.rowid as tie, rel, x.solution
      from (select rowid, ${rankExpression(s.rank)} as rel from search_fts
            where search_fts match ${s.match} and ${s.where}) search_fts
      cross join search_facts x on x.rowid = search_fts.rowid
      ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}`;
}

/** A match's ids and its boosted relevance (raw), from its facts `f` and `h` (tie, rel, solution). */
const facts = sql`f.post_id, f.topic_id, f.community_id, case when h.solution = 2 then 1 else 0 end as sol,
  h.rel * (case h.solution when 2 then ${sql.lit(SOLUTION_BOOST)} when 1 then ${sql.lit(SOLVED_TOPIC_BOOST)} else 1.0 end)
    * (1.0 + ${sql.lit(RECENCY_WEIGHT)} * max(0.0, min(1.0, (julianday(f.created_at) - 2451544.5) / 10957.0))) as raw`;

/** A search's MATCH text, its scope's condition and how it ranks, as every statement here takes them. */
export type Scoped = { match: string; where: RawBuilder<unknown>; rank: Rank };

/** With filters: every match ranked (exact pages, keyset). */
export async function filteredPage(
  db: Kysely<Database>,
  q: IndexQuery,
  s: Scoped,
): Promise<{ hits: IndexHit[]; total: number }> {
  const after = q.after
    ? sql`where key < ${q.after.raw} or (key = ${q.after.raw} and post_id > ${q.after.id})`
    : sql``;
  // By date: the post's creation in ms since 1970 (julianday 2440587.5 is 1970-01-01).
  const newest = q.newest
    ? sql`, (julianday(f.created_at) - 2440587.5) * 86400000.0 as newest`
    : sql``;
  const hits = sql`select h.tie, ${facts}${newest} from (${filteredHits(q, s)}) h cross join search_facts f on f.rowid = h.tie`;
  return topicPage(db, hits, after, q.limit, q.newest);
}

/**
 * With filters, a re-ranked head's candidates as pooled() and rankPool() choose them: the best
 * `pool` matches by engine relevance (ties by rowid), one per topic (its matching accepted
 * answer wherever it ranks, else its best pooled post), by the topic's best boosted relevance.
 */
export async function filteredCandidates(
  db: Kysely<Database>,
  q: Omit<IndexQuery, 'after'>,
  s: Scoped,
  pool: number,
): Promise<{ hits: PoolHit[]; total: number }> {
  const r = await sql<{
    postId: string;
    topicId: string;
    communityId: string;
    sol: number;
    raw: number;
    total: number;
  }>`
    with hits as materialized (${filteredHits(q, s)}),
    pool as (select h.tie, ${facts} from (select * from hits order by rel desc, tie limit ${pool}) h cross join search_facts f on f.rowid = h.tie),
    answers as (
      select h.tie >> ${sql.lit(SLOT_BITS)} as topic, f.post_id from hits h cross join search_facts f on f.rowid = h.tie
      where h.solution = 2 and (h.tie >> ${sql.lit(SLOT_BITS)}) in (select tie >> ${sql.lit(SLOT_BITS)} from pool)
    ),
    best as (
      select post_id, topic_id, community_id, tie >> ${sql.lit(SLOT_BITS)} as topic, max(raw) over (partition by topic_id) as raw,
        row_number() over (partition by topic_id order by sol desc, raw desc, post_id) as rn
      from pool
    ),
    page as (
      select coalesce(a.post_id, b.post_id) as post_id, b.topic_id, b.community_id, a.post_id is not null as sol, b.raw
      from best b left join answers a on a.topic = b.topic where b.rn = 1 order by b.raw desc, 1 limit ${q.limit}
    )
    select post_id as "postId", topic_id as "topicId", community_id as "communityId", sol, raw,
      (select count(distinct tie >> ${sql.lit(SLOT_BITS)}) from hits) as total
    from page order by raw desc, post_id`.execute(db);
  return {
    hits: r.rows.map((x) => ({
      postId: x.postId,
      topicId: x.topicId,
      communityId: x.communityId,
      sol: Boolean(x.sol),
      raw: Number(x.raw),
    })),
    total: r.rows.length
      ? Number(r.rows[0]!.total)
      : (await filteredPage(db, { ...q, limit: 1 }, s)).total,
  };
}
