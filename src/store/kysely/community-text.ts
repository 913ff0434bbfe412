// Public communities whose slug, name or description hold a subject's words, from the index of
// migration 0111 (community_text): one index lookup per word, so the cost follows the communities
// that match, never the number of communities (and what is summed and sorted is bounded per word).
// Best first: the most of the words matched, then the engine's own weight (bm25 on SQLite, ts_rank
// on PostgreSQL; slug and name weigh more than the description), then the slug.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { Database } from '../schema.ts';
import type { CommunityMatch } from '../types.ts';
import { communityFromRow } from './rows.ts';

type Row = Parameters<typeof communityFromRow>[0] & { matched: number | string };

/**
 * Communities taken per word at most (its best by the engine's weight): what is summed and sorted
 * stays bounded however common a word is; a community beyond a very common word's best is not
 * counted as holding it.
 */
export const MATCHES_PER_WORD = 1_000;

/** One word as an FTS5 string: matched as a whole word (stemmed), never read as query syntax. */
const ftsWord = (word: string) => `"${word.replaceAll('"', '""')}"`;

/** The communities holding the most words first, then by weight (`better` orders it), then slug. */
function best(perWord: RawBuilder<unknown>[], better: 'asc' | 'desc', limit: number) {
  return sql<Row>`select c.*, m.matched from (
      select u.community_id, count(*) as matched, sum(u.weight) as weight
      from (${sql.join(perWord, sql` union all `)}) u
      group by u.community_id
    ) m join communities c on c.id = m.community_id
    where c.visibility = 'public'
    order by m.matched desc, m.weight ${sql.raw(better)}, c.slug
    limit ${limit}`;
}

function sqliteQuery(words: string[], limit: number): RawBuilder<Row> {
  // bm25 is answered only in the SELECT that holds its MATCH: each word apart, materialized.
  const ctes = words.map(
    (w, i) => sql`${sql.raw(`w${i}`)} as materialized (
      select r.community_id, bm25(community_text, 2.0, 2.0, 1.0) as weight
      from community_text join community_text_rows r on r.rowid = community_text.rowid
      where community_text match ${ftsWord(w)}
      order by weight limit ${MATCHES_PER_WORD})`,
  );
  const perWord = words.map((_, i) => sql.raw(`select community_id, weight from w${i}`));
  return sql<Row>`with ${sql.join(ctes, sql`, `)} ${best(perWord, 'asc', limit)}`;
}

function postgresQuery(words: string[], limit: number): RawBuilder<Row> {
  const perWord = words.map(
    (w) => sql`(select t.community_id, ts_rank(t.vector, q) as weight
      from community_text t, plainto_tsquery('english', ${w}) q
      where t.vector @@ q
      order by weight desc limit ${MATCHES_PER_WORD})`,
  );
  return best(perWord, 'desc', limit);
}

/** At most `limit` public communities holding any of `words` (already split and lower-cased). */
export async function matchPublicCommunities(
  db: Kysely<Database>,
  dialect: Dialect,
  words: string[],
  limit: number,
): Promise<CommunityMatch[]> {
  if (!words.length || limit < 1) return [];
  const query = dialect === 'postgres' ? postgresQuery(words, limit) : sqliteQuery(words, limit);
  const { rows } = await query.execute(db);
  return rows.map((row) => ({ community: communityFromRow(row), matched: Number(row.matched) }));
}
