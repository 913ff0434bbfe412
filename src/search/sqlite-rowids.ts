// The FTS5 side of the SQLite index that every query shares: the rowid layout (community, topic and
// slot packed in one integer, migration 0009_search_speed), the MATCH text of a parsed query, and
// the rowid range of a set of communities.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { ParsedQuery } from './query.ts';

/** FTS5 rowid layout (migration 0009_search_speed): community_no << 42 | topic_no << 20 | slot. */
export const SLOT_BITS = 20;
export const COMMUNITY_SHIFT = 42;
const COMMUNITY_SPAN = 2 ** COMMUNITY_SHIFT;

export const quote = (w: string) => `"${w.replace(/"/g, '""')}"`;

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

/**
 * Each community's number in the rowid layout, per database handle. A number never changes once
 * given (search_communities keeps its rows; a community gets one with its first post), so a number
 * read once is kept; a community without one yet is asked again next time.
 */
const numbers = new WeakMap<Kysely<Database>, Map<string, number>>();

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
  return [...new Set(ids.flatMap((id) => known.get(id) ?? []))].sort((a, b) => a - b);
}

/** The FTS5 rowid condition for posts of these communities; undefined when none has any post. */
export async function communityRange(
  db: Kysely<Database>,
  ids: string[],
): Promise<RawBuilder<unknown> | undefined> {
  if (ids.length === 0) return undefined;
  const nos = await communityNumbers(db, ids);
  return nos.length === 0 ? undefined : rangeCondition(nos);
}

/** The FTS5 rowid condition for posts of the communities of these numbers (at least one). */
export function rangeCondition(nos: number[]): RawBuilder<unknown> {
  return nos.length === 1
    ? sql`search_fts.rowid between ${nos[0]! * COMMUNITY_SPAN} and ${(nos[0]! + 1) * COMMUNITY_SPAN - 1}`
    : sql`(search_fts.rowid >> ${sql.lit(COMMUNITY_SHIFT)}) in (${sql.join(nos)})`;
}
