// What a SQLite search ranks by (hamlet_bm25, ./sqlite-ranking.ts): its scope's documents and their
// average length, and each query phrase's idf from how many of the scope's documents hold it. A
// community's statistics are its own posts' and nobody else's; the network's are the public posts'
// phrase counts, over the whole index's document count and length (which FTS5 keeps in one record:
// an aggregate of sizes, never a word of a private post). Counted per scope, as cheap as the
// phrase's matches there, and kept a short while (SIZE_TTL_MS, COUNT_TTL_MS) in bounded caches.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { Frequencies } from './index.ts';
import { fts5Idf } from './learned-idf.ts';
import { TtlCache } from './vocabulary.ts';
import {
  communitySpan,
  quote,
  scopeCondition,
  scopeKey,
  type RowidScope,
} from './sqlite-rowids.ts';

/** How long a scope's size, and a phrase's count in it, are reused (a few posts more move neither much). */
const SIZE_TTL_MS = 5 * 60_000;
const COUNT_TTL_MS = 60_000;
/**
 * Public documents counted per phrase at most: past it a phrase is in so many posts that its idf
 * hardly weighs (at 10 million posts, 200,000 is 2% of them), and counting it would cost as much.
 */
export const PUBLIC_COUNT_CAP = 200_000;

type Size = { docs: number; avgdl: number };

/**
 * The varints of a blob, in order, in FTS5's record format (SQLite's varints: 7 bits a byte, most
 * significant first, the high bit set while more follow; a ninth byte gives all its 8 bits).
 */
export function varints(blob: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < blob.length;) {
    let v = 0;
    for (let k = 0; k < 9 && i < blob.length; k++) {
      const c = blob[i++]!;
      if (k === 8) {
        v = v * 256 + c;
        break;
      }
      v = v * 128 + (c & 0x7f);
      if (!(c & 0x80)) break;
    }
    out.push(v);
  }
  return out;
}

export class SqliteStatistics {
  private readonly sizes = new TtlCache<Size>(2_000, SIZE_TTL_MS);
  private readonly counts = new TtlCache<number>(20_000, COUNT_TTL_MS);

  constructor(private readonly db: Kysely<Database>) {}

  /** hamlet_bm25's arguments after the table: the scope's average length, one idf per phrase. */
  async rankArguments(scope: RowidScope, phrases: string[]): Promise<number[]> {
    const [size, df] = await Promise.all([this.size(scope), this.documentCounts(scope, phrases)]);
    return [size.avgdl, ...df.map((n) => fts5Idf(n, size.docs))];
  }

  /**
   * How common each word is in the scope (its documents holding it: 0 for a word none holds; 1 for
   * a word not asked about), and its document count.
   */
  async frequencies(scope: RowidScope, words: string[]): Promise<Frequencies> {
    const [size, df] = await Promise.all([this.size(scope), this.documentCounts(scope, words)]);
    const byWord = new Map(words.map((w, i) => [w, df[i]!]));
    return { topics: size.docs, df: (w) => byWord.get(w) ?? 1 };
  }

  /** Entries held (diagnostics). */
  stats(): { sizes: number; counts: number } {
    return { sizes: this.sizes.size, counts: this.counts.size };
  }

  /** The scope's documents and their average length in tokens. */
  private async size(scope: RowidScope): Promise<Size> {
    const key = scopeKey(scope);
    const known = this.sizes.get(key, '');
    if (known) return known;
    let docs: number;
    let tokens: number;
    if (scope.kind === 'public') {
      // FTS5's averages record: the table's rows, then its tokens per column.
      const r = await sql<{
        block: Uint8Array | null;
      }>`select block from search_fts_data where id = 1`.execute(this.db);
      const [rows = 0, ...columns] = r.rows[0]?.block ? varints(r.rows[0].block) : [];
      docs = rows;
      tokens = columns.reduce((a, b) => a + b, 0);
    } else {
      const ranges = scope.nos.map((no) => {
        const [lo, hi] = communitySpan(no);
        return sql`id between ${lo} and ${hi}`;
      });
      const r = await sql<{ docs: number; tokens: number }>`
        select count(*) as docs, coalesce(sum(hamlet_doclen(sz)), 0) as tokens
        from search_fts_docsize where ${sql.join(ranges, sql` or `)}`.execute(this.db);
      docs = Number(r.rows[0]?.docs ?? 0);
      tokens = Number(r.rows[0]?.tokens ?? 0);
    }
    const size = { docs, avgdl: docs > 0 ? tokens / docs : 1 };
    this.sizes.set(key, size, '');
    return size;
  }

  /** How many of the scope's documents hold each phrase (public ones: at most PUBLIC_COUNT_CAP). */
  private async documentCounts(scope: RowidScope, phrases: string[]): Promise<number[]> {
    const key = scopeKey(scope);
    const out = phrases.map((p) => this.counts.get(`${key}\u0000${p}`, ''));
    const missing = [...new Set(phrases.filter((_, i) => out[i] === undefined))];
    if (missing.length) {
      const where = scopeCondition(scope);
      const counted = missing.map((p, i) => {
        const matches = sql`select 1 from search_fts where search_fts match ${quote(p)} and ${where}`;
        const capped =
          scope.kind === 'public' ? sql`${matches} limit ${sql.lit(PUBLIC_COUNT_CAP)}` : matches;
        return sql`(select count(*) from (${capped})) as ${sql.ref(`d${i}`)}`;
      });
      const r = await sql<Record<string, number>>`select ${sql.join(counted)}`.execute(this.db);
      const row = r.rows[0]!;
      missing.forEach((p, i) => this.counts.set(`${key}\u0000${p}`, Number(row[`d${i}`]), ''));
      phrases.forEach((p, i) => (out[i] ??= this.counts.get(`${key}\u0000${p}`, '')));
    }
    return out.map((n) => n ?? 0);
  }
}
