// The FTS5 side of the SQLite index that every query shares: the rowid layout (community, topic and
// slot packed in one integer, migration 0009_search_speed), the MATCH text of a parsed query, the
// rank of a match, and the rowid condition of a search's scope (some communities, or every public one).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { ParsedQuery } from './query.ts';
import type { SearchScope } from './index.ts';

/** FTS5 rowid layout (migration 0009_search_speed): community_no << 42 | topic_no << 20 | slot. */
export const SLOT_BITS = 20;
export const COMMUNITY_SHIFT = 42;
const COMMUNITY_SPAN = 2 ** COMMUNITY_SHIFT;

export const quote = (w: string) => `"${w.replace(/"/g, '""')}"`;

/** bm25 column weights: topic title on the first post, the title repeated on replies, body. */
export const SQLITE_WEIGHTS = [6, 1.5, 1] as const;

/**
 * How a statement ranks its matches (larger is better): hamlet_bm25 with the search's own
 * statistics (`args`: the scope's average length, then one idf per phrase of the MATCH text), or,
 * where Hamlet's ranking function is not loaded, FTS5's bm25 over the whole table's statistics.
 */
export type Rank = { kind: 'hamlet'; args: number[] } | { kind: 'fts5' };

/** The SQL of a rank over search_fts. */
export function rankExpression(rank: Rank): RawBuilder<unknown> {
  const weights = sql.join(SQLITE_WEIGHTS.map((w) => sql.lit(w)));
  if (rank.kind === 'fts5') return sql`-bm25(search_fts, ${weights})`;
  const [avgdl, ...idf] = rank.args;
  return sql`hamlet_bm25(search_fts, ${avgdl}, ${weights}${idf.length ? sql`, ${sql.join(idf)}` : sql``})`;
}

/**
 * FTS5 MATCH text, and its phrases in the order FTS5 numbers them (left to right, a phrase
 * written twice counted twice): what hamlet_bm25 takes one idf each for. Every word is a
 * double-quoted string (words are letters/digits only anyway).
 */
export function matchQuery(q: ParsedQuery): { text: string; phrases: string[] } {
  const phrases: string[] = [];
  const phrase = (text: string) => {
    phrases.push(text);
    return quote(text);
  };
  const groups = () =>
    q.terms.map((t) => {
      const alts = [t.word, ...t.alternatives].map(phrase);
      return alts.length === 1 ? alts[0]! : `(${alts.join(' OR ')})`;
    });
  const required = () => q.phrases.map((p) => phrase(p.join(' ')));
  let positive: string;
  if (q.phrases.length === 0) positive = groups().join(' OR ');
  else if (q.terms.length === 0) positive = required().join(' AND ');
  // Phrases are required; the other words only add to the rank (OR-ed with the phrases).
  else {
    const must = required().join(' AND ');
    positive = `(${must}) AND (${[...groups(), ...required()].join(' OR ')})`;
  }
  if (q.excluded.length) positive = `(${positive}) NOT (${q.excluded.map(phrase).join(' OR ')})`;
  return { text: positive, phrases };
}

/** FTS5 MATCH text of a parsed query (see matchQuery). */
export function matchExpression(q: ParsedQuery): string {
  return matchQuery(q).text;
}

/**
 * Each community's number in the rowid layout, per database handle, for the most recently
 * searched NUMBERS_KEPT communities. A number never changes once given (search_communities keeps
 * its rows; a community gets one with its first post), so a number read once is kept; a
 * community without one yet is asked again next time.
 */
const numbers = new WeakMap<Kysely<Database>, Map<string, number>>();
const NUMBERS_KEPT = 10_000;

/** The numbers of these communities that have one, each once, in order. */
export async function communityNumbers(db: Kysely<Database>, ids: string[]): Promise<number[]> {
  let known = numbers.get(db);
  if (!known) numbers.set(db, (known = new Map()));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) {
    const r = await sql<{
      no: number;
      community_id: string;
    }>`select no, community_id from search_communities where community_id in (${sql.join(missing)})`.execute(
      db,
    );
    for (const row of r.rows) known.set(row.community_id, Number(row.no));
  }
  const out: number[] = [];
  for (const id of ids) {
    const no = known.get(id);
    if (no === undefined) continue;
    // Most recently used last: the first entries are the ones dropped past NUMBERS_KEPT.
    known.delete(id);
    known.set(id, no);
    out.push(no);
  }
  while (known.size > NUMBERS_KEPT) known.delete(known.keys().next().value!);
  return [...new Set(out)].sort((a, b) => a - b);
}

/**
 * What a search reads in the rowid layout: the posts of some communities (their numbers, at
 * least one), or of every public community, told by one primary-key lookup per match of its
 * community's row (search_communities.public, migration 0110): never a list of the network.
 */
export type RowidScope = { kind: 'communities'; nos: number[] } | { kind: 'public' };

/** The scope of a search; undefined when it names communities none of which has a post. */
export async function rowidScope(
  db: Kysely<Database>,
  scope: SearchScope,
): Promise<RowidScope | undefined> {
  if (scope.kind === 'public') return scope;
  const nos = await communityNumbers(db, scope.ids);
  return nos.length ? { kind: 'communities', nos } : undefined;
}

/** The FTS5 condition for posts in the scope. */
export function scopeCondition(scope: RowidScope): RawBuilder<unknown> {
  return scope.kind === 'public'
    ? sql`exists (select 1 from search_communities sc where sc.no = (search_fts.rowid >> ${sql.lit(COMMUNITY_SHIFT)}) and sc.public = 1)`
    : rangeCondition(scope.nos);
}

/** A key naming the scope (caches of its statistics). */
export function scopeKey(scope: RowidScope): string {
  return scope.kind === 'public' ? 'public' : `c:${scope.nos.join(',')}`;
}

/** The FTS5 rowid range of community number `no`: [lo, hi]. */
export function communitySpan(no: number): [number, number] {
  return [no * COMMUNITY_SPAN, (no + 1) * COMMUNITY_SPAN - 1];
}

/** The FTS5 rowid condition for posts of the communities of these numbers (at least one). */
export function rangeCondition(nos: number[]): RawBuilder<unknown> {
  return nos.length === 1
    ? sql`search_fts.rowid between ${nos[0]! * COMMUNITY_SPAN} and ${(nos[0]! + 1) * COMMUNITY_SPAN - 1}`
    : sql`(search_fts.rowid >> ${sql.lit(COMMUNITY_SHIFT)}) in (${sql.join(nos)})`;
}
