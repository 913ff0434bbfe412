// The engine side of search: one interface, an SQLite FTS5 and a PostgreSQL full-text
// implementation (./sqlite-index.ts, ./postgres-index.ts). Both read the index the triggers of
// migration 0005_search keep up to date; neither writes it.
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { Dialect } from '../store/repositories.ts';
import type { ParsedQuery } from './query.ts';
import type { SourceType } from './types.ts';
import { NO_SIGNALS, type PostSignals, type PostSignalsTable } from '../store/votes.ts';
import { signalsOf } from '../store/kysely/votes.ts';

export type IndexFilters = {
  categorySlug?: string;
  tags?: string[];
  solvedOnly?: boolean;
  sourceTypes?: SourceType[];
  author?: string;
  since?: string;
  until?: string;
  /** Posts that ran there (their own environment or a "worked" report): a version prefix per name. */
  environment?: Record<string, string>;
};

/**
 * What a search reads: the posts of some communities (by id; what a caller authorized), or of
 * every public community (the network), never listed: each engine marks public posts beside its
 * index (migration 0110). Each scope is ranked by its own statistics.
 */
export type SearchScope = { kind: 'communities'; ids: string[] } | { kind: 'public' };

export type IndexQuery = {
  scope: SearchScope;
  query: ParsedQuery;
  filters: IndexFilters;
  limit: number;
  /** Keyset: continue after this (raw score, or the date key when `newest`; post id). */
  after?: { raw: number; id: string };
  /**
   * Topics by their newest matching post instead of by relevance (each still shows its accepted
   * answer when that matches, else its newest matching post); pages keyed by that date.
   */
  newest?: boolean;
  /**
   * How common each word is in the searched communities, as their learned lexicons know it (every
   * one of them learned): engines that weigh words themselves (PostgreSQL's idf) read it instead
   * of counting documents per query. Absent: the engine counts, in the scope only.
   */
  frequencies?: Frequencies;
};

/** Topics in the searched communities, and how many of them hold a term (our stemmer's terms). */
export type Frequencies = { topics: number; df(term: string): number };

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
  /** The author's reputation in the post's community (null: none earned), read with the details. */
  authorReputation?: number | null;
  createdAt: string;
  body: string;
  solutionPostId: string | null;
  /** Engine relevance × boosts; larger is better; unbounded. */
  raw: number;
  /** With `newest`: the topic's newest matching post's date (ms since 1970), the page's order. */
  key?: number;
  /** The post's signals, read with its details (what results show of its confidence). */
  signals?: PostSignals;
};

/** The post's signals row, read beside its details (alias s, columns prefixed s_). */
const SIGNAL_COLUMNS = sql.raw(
  [
    'score',
    'up_count',
    'down_count',
    'worked_agents',
    'worked_people',
    'failed_count',
    'last_worked_at',
    'environment',
    'worked_weight',
    'failed_weight',
    'disputed',
    'dispute_cleared_at',
    'worked_in',
    'cited_by',
  ]
    .map((c) => `s.${c} as s_${c}`)
    .join(', '),
);

/** A details row without its s_ columns, and the signals they held (none: zero). */
function withSignalColumns<R extends Record<string, unknown>>(
  row: R,
): R & { signals: PostSignals } {
  const rest: Record<string, unknown> = {};
  const columns: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    if (k.startsWith('s_')) columns[k.slice(2)] = v;
    else rest[k] = v;
  const signals =
    columns.score === null || columns.score === undefined
      ? NO_SIGNALS
      : signalsOf(columns as unknown as Selectable<PostSignalsTable>);
  return { ...(rest as R), signals };
}

export type IndexReport = {
  posts: number;
  indexed: number;
  missing: number;
  stale: number;
  orphans: number;
};

export interface SearchIndex {
  readonly engine: Dialect;
  /** The database the index reads (the re-ranking and the learned lexicon read topics and posts). */
  readonly db: Kysely<Database>;
  /** Ranked, filtered, one hit per topic, keyset-paginated; total counts topics over all pages. */
  search(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }>;
  /**
   * The candidates of a re-ranked head: the best `q.limit` topics (one hit per topic, boosted, as
   * search() ranks them) among the engine's best `pool` posts only, so flat scores never widen
   * the scan; total counts topics over all matches. No keyset; hits carry no page details
   * (pageDetails() reads them for the page shown).
   */
  candidates(
    q: Omit<IndexQuery, 'after'>,
    pool: number,
  ): Promise<{ hits: PoolHit[]; total: number }>;
  /** The bare engine query (match + engine rank + limit, nothing else): the benchmark baseline. */
  bare(q: ParsedQuery, limit: number): Promise<string[]>;
  /**
   * Of these words, the ones that match no document of the scope. `frequencies` (its learned
   * lexicons, when known) may guide how the engine looks; the answer never depends on them.
   */
  unmatched(words: string[], scope: SearchScope, frequencies?: Frequencies): Promise<string[]>;
  /**
   * Index terms within one edit of the word that occur in the scope (most frequent there first),
   * to stand in for a typo. Words outside the scope never count, nor their frequency.
   */
  corrections(word: string, scope: SearchScope, max?: number): Promise<string[]>;
  /**
   * How many of the scope's documents hold each of these words (the engine's own matching), and
   * how many documents it has: the statistics a search of several communities ranks by (counted
   * per scope, cached a short while; never another scope's).
   */
  wordFrequencies(words: string[], scope: SearchScope): Promise<Frequencies>;
  /** Compares the index with the posts table (every post indexed with its current text, no extras). */
  verify(): Promise<IndexReport>;
  /** Fills the in-process caches a search would otherwise fill on first use (a service starting). */
  warm?(): Promise<void>;
  /** How SQLite ranks (its own function with each search's statistics, or FTS5's bm25, and why). */
  readonly ranking?: { kind: 'hamlet' } | { kind: 'fts5'; reason: string };
  /** Size of the in-process caches (./vocabulary.ts), for benchmarks and diagnostics. */
  cacheStats?(): Record<string, number>;
}

export const SOLUTION_BOOST = 1.6;
export const SOLVED_TOPIC_BOOST = 1.15;
export const RECENCY_WEIGHT = 0.05;

/** The most a post's engine relevance can be multiplied by (accepted answer, newest date). */
export const MAX_BOOST = SOLUTION_BOOST * (1 + RECENCY_WEIGHT);
/** Candidate posts ranked by the engine before boosts and one-hit-per-topic (widened when short). */
export const POOL = 200;

/** Any filter beyond the communities (those need the posts' and topics' columns for every match). */
export function hasFilters(f: IndexFilters): boolean {
  return Boolean(
    f.categorySlug ||
    f.tags?.length ||
    f.solvedOnly ||
    f.author ||
    f.since ||
    f.until ||
    (f.environment && Object.keys(f.environment).length > 0) ||
    (f.sourceTypes && f.sourceTypes.length < 3),
  );
}

/** A pooled candidate after boosts. */
export type PoolHit = {
  postId: string;
  topicId: string;
  communityId: string;
  sol: boolean;
  raw: number;
};

/**
 * Engine relevance × boosts, as the filtered SQL computes it: the accepted answer × SOLUTION_BOOST,
 * other posts of a solved topic × SOLVED_TOPIC_BOOST, and up to RECENCY_WEIGHT more for posts
 * dated between 2000 and 2030 (`spanDays` is the engine's length of those 30 years).
 */
export function boosted(
  relevance: number,
  solutionPostId: string | null,
  postId: string,
  createdAt: string | Date,
  spanDays: number,
): number {
  const boost =
    solutionPostId === postId ? SOLUTION_BOOST : solutionPostId ? SOLVED_TOPIC_BOOST : 1.0;
  const ms = createdAt instanceof Date ? createdAt.getTime() : Date.parse(createdAt);
  const days = ms / 86_400_000 - 10_957;
  return relevance * boost * (1.0 + RECENCY_WEIGHT * Math.max(0, Math.min(1, days / spanDays)));
}

/**
 * One hit per topic (its accepted answer when that matched, else its best post; ranked by the
 * topic's best post), ordered by (raw desc, post id), after the keyset, `q.limit` of them.
 * `bound` is the highest raw any post outside the pool could have (-Infinity: the pool holds every
 * match). Returns undefined when that bound could change the page: the pool must be widened.
 * `solutions(topicIds)` answers, for topics whose accepted answer is outside the pool, the ones
 * whose answer matches the query (it then represents the topic; its raw is below the topic's best,
 * which is above `bound`, so only the representative changes). It is asked about the first topics
 * only, as few as the page needs. `bounded`: the pool is all that is ranked (a re-ranked head's
 * candidates), so `bound` is -Infinity yet answers outside the pool may match.
 */
export async function pageOf(
  hits: PoolHit[],
  q: Pick<IndexQuery, 'limit' | 'after'>,
  bound: number,
  outside: Map<string, string>,
  solutions: (topicIds: string[]) => Promise<Set<string>>,
  bounded = false,
): Promise<PoolHit[] | undefined> {
  const topics = new Map<string, { best: number; rep: PoolHit }>();
  for (const h of hits) {
    const t = topics.get(h.topicId);
    if (!t) {
      topics.set(h.topicId, { best: h.raw, rep: h });
      continue;
    }
    t.best = Math.max(t.best, h.raw);
    const r = t.rep;
    if (
      (h.sol && !r.sol) ||
      (h.sol === r.sol && (h.raw > r.raw || (h.raw === r.raw && h.postId < r.postId)))
    )
      t.rep = h;
  }
  const after = q.after;
  const order = (a: PoolHit, b: PoolHit) =>
    b.raw - a.raw || (a.postId < b.postId ? -1 : a.postId > b.postId ? 1 : 0);
  let ordered = [...topics.values()]
    .map((t) => ({ ...t.rep, raw: t.best }))
    .filter((h) => !after || h.raw <= after.raw)
    .sort(order);
  // Representatives first (they decide the keyset's tie-break), for the page and a margin of ties.
  const head = ordered.slice(0, q.limit + 8).filter((h) => !h.sol && outside.has(h.topicId));
  if ((bound !== -Infinity || bounded) && head.length) {
    const matched = await solutions(head.map((h) => h.topicId));
    if (matched.size) {
      ordered = ordered
        .map((h) =>
          matched.has(h.topicId) ? { ...h, postId: outside.get(h.topicId)!, sol: true } : h,
        )
        .sort(order);
    }
  }
  const page = ordered
    .filter((h) => !after || h.raw < after.raw || (h.raw === after.raw && h.postId > after.id))
    .slice(0, q.limit);
  if (bound === -Infinity) return page;
  if (page.length < q.limit || page[page.length - 1]!.raw <= bound) return undefined;
  return page;
}

/**
 * The rows a page of hits shows (post, topic, category), in the page's order. One query for both
 * engines: the id list is bound parameters, which PostgreSQL coerces to uuid from the column.
 */
export async function pageDetails(db: Kysely<Database>, page: PoolHit[]): Promise<IndexHit[]> {
  if (page.length === 0) return [];
  const r = await sql<
    Omit<IndexHit, 'raw' | 'position' | 'createdAt'> & {
      position: number | bigint;
      createdAt: Date | string;
    }
  >`
    select p.id as "postId", p.topic_id as "topicId", p.community_id as "communityId",
      p.position, p.author_kind as "authorKind", p.author_name as "authorName", ar.reputation as "authorReputation", p.created_at as "createdAt", p.body,
      t.slug as "topicSlug", t.title, t.solution_post_id as "solutionPostId", c.slug as "categorySlug", c.kind as "categoryKind",
      ${SIGNAL_COLUMNS}
    from posts p join topics t on t.id = p.topic_id join categories c on c.id = t.category_id
      left join post_signals s on s.post_id = p.id
      left join author_reputation ar on ar.community_id = p.community_id
        and ar.author_kind = p.author_kind and ar.author_id = p.author_id
    where p.id in (${sql.join(page.map((h) => h.postId))})`.execute(db);
  const byId = new Map(r.rows.map((x) => [x.postId, withSignalColumns(x)]));
  return page.flatMap((h) => {
    const x = byId.get(h.postId);
    if (!x) return [];
    // PostgreSQL returns timestamptz as Date; SQLite keeps the ISO text as written.
    const createdAt = x.createdAt instanceof Date ? x.createdAt.toISOString() : x.createdAt;
    return [{ ...x, createdAt, position: Number(x.position), raw: h.raw }];
  });
}

/**
 * One hit per topic over `hits` (every match with post_id, topic_id, community_id, sol = 1 for an
 * accepted answer, raw = boosted relevance, and with `newest` a `newest` column: the post's date
 * in ms): the topic's accepted answer when it is among them, else its best post (its newest, with
 * `newest`), ranked by the topic's best raw (newest date); an exact keyset page (`after`: the
 * engine's condition on `key`, the order's column, and post_id) with its details, and the number
 * of topics. Both engines run it.
 */
export async function topicPage(
  db: Kysely<Database>,
  hits: RawBuilder<unknown>,
  after: RawBuilder<unknown>,
  limit: number,
  newest = false,
): Promise<{ hits: IndexHit[]; total: number }> {
  type Row = Omit<IndexHit, 'position' | 'raw' | 'createdAt' | 'key'> & {
    position: number | bigint;
    raw: number;
    key: number;
    total: number | bigint | string;
    createdAt: Date | string;
  };
  const order = newest ? sql.ref('newest') : sql.ref('raw');
  const result = await sql<Row>`
    with hits as (${hits}),
    best as (
      select post_id, topic_id, community_id, max(raw) over (partition by topic_id) as raw,
        max(${order}) over (partition by topic_id) as key,
        row_number() over (partition by topic_id order by sol desc, ${order} desc, post_id) as rn
      from hits
    ),
    ranked as (select post_id, topic_id, community_id, raw, key, count(*) over () as total from best where rn = 1),
    page as (select * from ranked ${after} order by key desc, post_id limit ${limit})
    select page.post_id as "postId", page.topic_id as "topicId", page.community_id as "communityId", page.raw, page.key, page.total,
      p.position, p.author_kind as "authorKind", p.author_name as "authorName", ar.reputation as "authorReputation", p.created_at as "createdAt", p.body,
      t.slug as "topicSlug", t.title, t.solution_post_id as "solutionPostId", c.slug as "categorySlug", c.kind as "categoryKind",
      ${SIGNAL_COLUMNS}
    from page join posts p on p.id = page.post_id join topics t on t.id = page.topic_id join categories c on c.id = t.category_id
      left join post_signals s on s.post_id = p.id
      left join author_reputation ar on ar.community_id = p.community_id
        and ar.author_kind = p.author_kind and ar.author_id = p.author_id
    order by page.key desc, page.post_id`.execute(db);
  let total = 0;
  const out = result.rows.map(withSignalColumns).map((r) => {
    total = Number(r.total);
    const { total: _t, key, ...rest } = r;
    const createdAt = r.createdAt instanceof Date ? r.createdAt.toISOString() : r.createdAt;
    return {
      ...rest,
      createdAt,
      position: Number(r.position),
      raw: Number(r.raw),
      ...(newest ? { key: Number(key) } : {}),
    };
  });
  return { hits: out, total };
}
