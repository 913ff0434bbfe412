// PostgreSQL ranks every match of a search in one statement (a pool and a separate count cost
// more here, and widening a shallow pool cost up to 1 s at 100k posts): the matches with the
// columns the filters test (kept on search_documents, migration 0023), one hit per topic, the
// topic total. Used by ./postgres-index.ts, which supplies the match, each unit's frequency and idf
// (BM25: ./postgres-bm25.ts).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import { filterConditions } from './filter-conditions.ts';
import { bm25Rank } from './postgres-bm25.ts';
import {
  RECENCY_WEIGHT,
  SOLUTION_BOOST,
  SOLVED_TOPIC_BOOST,
  topicPage,
  type IndexHit,
  type IndexQuery,
  type PoolHit,
  type SearchScope,
} from './index.ts';

/** Documents of the scope whose lengths give BM25's average length (a bounded read, see rankedMatches). */
const LENGTH_SAMPLE = 5000;

/**
 * The documents of a scope: some communities', or every public one's (the `public` mark kept on
 * each document, migration 0110: one column tested per match, never a list of the network).
 */
export function scopeCondition(scope: SearchScope, alias = 'd'): RawBuilder<unknown> {
  return scope.kind === 'public'
    ? sql`${sql.ref(`${alias}.public`)}`
    : sql`${sql.ref(`${alias}.community_id`)} in (${sql.join(scope.ids)})`;
}

/**
 * The filtered matches from search_documents alone (the columns the filters test are kept there,
 * migration 0023: no post or topic read per match): post, topic, community, whether it is the
 * accepted answer (sol), engine relevance (rel: BM25, ./postgres-bm25.ts, from each unit's frequency
 * `tf`, the document's length and the scope's average length), and the columns the boosts read
 * (solution, created_at; see boostedRaw). The boosted relevance is not a column here: PostgreSQL
 * evaluates each output expression on its own, so a `raw` computed from `rel` in the same select
 * list ranks every match twice.
 */
export function rankedMatches(
  q: Omit<IndexQuery, 'after'>,
  match: RawBuilder<unknown>,
  tf: { tf: RawBuilder<unknown>; when?: RawBuilder<unknown> }[],
  idf: number[],
): RawBuilder<unknown> {
  const where = [
    sql`d.vector @@ (${match})`,
    scopeCondition(q.scope),
    ...filterConditions(q.filters, q.scope, 'd', (iso) => sql`${iso}::timestamptz`),
  ];
  // The scope's average length from its first LENGTH_SAMPLE documents: one bounded read per
  // statement, computed once and read by each unit (an average over every match cost up to 2.4×
  // the p95 at 100k posts: a window over all of them before the best could be picked).
  const sample = sql`select greatest(coalesce(avg(length(s.vector)), 1), 1)::float8 as avgdl
      from (select d.vector from search_documents d where ${scopeCondition(q.scope)} limit ${sql.lit(LENGTH_SAMPLE)}) s`;
  return sql`
    with length_sample as materialized (${sample})
    select d.post_id, d.topic_id, d.community_id, d.created_at, d.solution, case when d.solution = 2 then 1 else 0 end as sol,
      (${bm25Rank(tf, idf, sql`(select avgdl from length_sample)`)}) as rel
    from search_documents d
    where ${sql.join(where, sql` and `)}`;
}

/** Boosted relevance (raw) of a row of rankedMatches: rel × the accepted-answer boosts × recency. */
const boostedRaw = sql`rel * (case solution when 2 then ${sql.lit(SOLUTION_BOOST)}::float8 when 1 then ${sql.lit(SOLVED_TOPIC_BOOST)}::float8 else 1.0::float8 end)
        * (1.0 + ${sql.lit(RECENCY_WEIGHT)} * greatest(0.0, least(1.0, (extract(epoch from created_at)::float8 - 946684800.0) / 946728000.0)))::float8`;

/** Every match ranked, one per topic: an exact keyset page with its details, and the topic total. */
export async function rankedPage(
  db: Kysely<Database>,
  q: IndexQuery,
  hits: RawBuilder<unknown>,
): Promise<{ hits: IndexHit[]; total: number }> {
  const after = q.after
    ? sql`where key < ${q.after.raw}::float8 or (key = ${q.after.raw}::float8 and post_id > ${q.after.id}::uuid)`
    : sql``;
  // By date: the post's creation in ms since 1970.
  const newest = q.newest
    ? sql`, extract(epoch from created_at)::float8 * 1000.0 as newest`
    : sql``;
  // Only raw is read downstream, so the rank is computed once per match here.
  return topicPage(
    db,
    sql`select post_id, topic_id, community_id, sol, ${boostedRaw} as raw${newest} from (${hits}) m`,
    after,
    q.limit,
    q.newest,
  );
}

/**
 * A re-ranked head's candidates (with or without filters): the best `pool` matches by engine
 * relevance (ties by post id), one per topic (its matching accepted answer wherever it ranks,
 * else its best pooled post), by the topic's best boosted relevance.
 */
export async function headCandidates(
  db: Kysely<Database>,
  q: Omit<IndexQuery, 'after'>,
  hits: RawBuilder<unknown>,
  pool: number,
): Promise<{ hits: PoolHit[]; total: number }> {
  // The statement runs with the session's parallel_tuple_cost (0.01, set when the connection is
  // opened: ../store/open.ts), which gives its scan of every match parallel workers.
  const r = await sql<{
    post_id: string;
    topic_id: string;
    community_id: string;
    sol: boolean;
    raw: number;
    total: string | number;
  }>`
    with hits as materialized (${hits}),
    pool as (select post_id, topic_id, community_id, sol, ${boostedRaw} as raw from hits order by rel desc, post_id limit ${pool}),
    -- Only the pooled topics' answers (the planner, misjudging the pool's size, would otherwise scan
    -- every match once per pooled row).
    answers as materialized (select topic_id, post_id from hits where sol = 1 and topic_id in (select topic_id from pool)),
    best as (
      select post_id, topic_id, community_id, max(raw) over (partition by topic_id) as raw,
        row_number() over (partition by topic_id order by sol desc, raw desc, post_id) as rn
      from pool
    ),
    page as (
      select coalesce(a.post_id, b.post_id) as post_id, b.topic_id, b.community_id, a.post_id is not null as sol, b.raw
      from best b left join answers a on a.topic_id = b.topic_id where b.rn = 1 order by b.raw desc, 1 limit ${q.limit}
    )
    select post_id, topic_id, community_id, sol, raw, (select count(*) from (select topic_id from hits group by topic_id) g) as total
    from page order by raw desc, post_id`.execute(db);
  return {
    hits: r.rows.map((x) => ({
      postId: x.post_id,
      topicId: x.topic_id,
      communityId: x.community_id,
      sol: x.sol,
      raw: Number(x.raw),
    })),
    total: r.rows.length ? Number(r.rows[0]!.total) : 0,
  };
}
