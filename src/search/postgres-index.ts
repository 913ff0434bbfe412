// PostgreSQL full text: tsvector + GIN. The match is a tsquery built from bound parameters only
// (plainto_tsquery / phraseto_tsquery per word or phrase, combined with || && !!), so no user
// text is ever parsed as tsquery syntax. Ranking is BM25 (./postgres-bm25.ts): per query word its
// idf × the saturated, length-normalized frequency ts_rank gives without normalization (ts_rank
// alone has no inverse document frequency, which lets common words drown the rare ones of a
// natural-language question, and hardly any frequency or length effect). The idf comes from
// the searched communities' learned lexicons when they are learned (no query, and a word's weight
// in one community is never moved by another's text), else from capped document counts in the
// search's scope (a community's own; the network's public documents).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { ParsedQuery } from './query.ts';
import { isCorrection } from './query.ts';
import { TtlCache } from './vocabulary.ts';
import { headCandidates, rankedMatches, rankedPage, scopeCondition } from './postgres-ranked.ts';
import type {
  Frequencies,
  IndexHit,
  IndexQuery,
  IndexReport,
  PoolHit,
  SearchIndex,
  SearchScope,
} from './index.ts';
import { engineIdf, heldBy, learnedIdf } from './learned-idf.ts';
import { unitFrequency, type RankUnit } from './postgres-bm25.ts';

/** ts_rank weights {D, C, B, A} of the bare query (bench/search.ts: the engine alone): C = title repeated on replies, B = body, A = title of a first post. */
export const PG_WEIGHTS = '{0.05, 0.25, 0.4, 1.0}';
/** How long a count (a unit's documents in a scope, a scope's size) is reused. */
const COUNTS_TTL_MS = 60_000;
/** Document frequencies are counted up to this many documents (keeps the count cheap on big data). */
const DF_CAP = 20_000;
/** A query word in this share of the communities' topics is looked up without forcing the GIN index (unmatched). */
const COMMON_SHARE = 0.02;

/** A scope naming no community (nothing to search). */
const isEmpty = (scope: SearchScope) => scope.kind === 'communities' && scope.ids.length === 0;

/** A word and its typo alternatives: the word by the english configuration, each alternative (an index term already) by simple. */
function groupParts(t: { word: string; alternatives: string[] }): RawBuilder<unknown>[] {
  return [
    sql`plainto_tsquery('english', ${t.word})`,
    ...t.alternatives.map((a) => sql`plainto_tsquery('simple', ${a})`),
  ];
}

function group(t: { word: string; alternatives: string[] }): RawBuilder<unknown> {
  const parts = groupParts(t);
  return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` || `)})`;
}

/** The tsquery components: one per rankable unit (word group or phrase, `keys` naming each), plus the match query. */
function components(q: ParsedQuery): {
  units: RawBuilder<unknown>[];
  ranked: RankUnit[];
  keys: string[];
  match: RawBuilder<unknown>;
} {
  const groups = q.terms.map(group);
  const phrases = q.phrases.map((p) => sql`phraseto_tsquery('english', ${p.join(' ')})`);
  let match: RawBuilder<unknown>;
  if (phrases.length === 0) match = sql.join(groups, sql` || `);
  else match = sql.join(phrases, sql` && `);
  if (q.excluded.length) {
    match = sql`(${match}) && !!(${sql.join(
      q.excluded.map((w) => sql`plainto_tsquery('english', ${w})`),
      sql` || `,
    )})`;
  }
  const keys = [
    ...q.terms.map((t) => `w:${[t.word, ...t.alternatives].join(' ')}`),
    ...q.phrases.map((p) => `p:${p.join(' ')}`),
  ];
  const ranked: RankUnit[] = [
    ...q.terms.map((t) => ({ parts: groupParts(t), phrase: false })),
    ...phrases.map((p) => ({ parts: [p], phrase: true })),
  ];
  return { units: [...groups, ...phrases], ranked, keys, match };
}

export class PostgresSearchIndex implements SearchIndex {
  readonly engine = 'postgres' as const;
  private trigram: boolean | undefined;
  /** Capped document frequencies per scope and rankable unit (and '#n', the scope's size): counts(). */
  private readonly dfCache = new TtlCache<number>(20_000, COUNTS_TTL_MS);
  constructor(readonly db: Kysely<Database>) {}

  /**
   * idf per rankable unit: from the learned lexicons when the query carries them, else from the
   * scope's capped document frequencies and size (counts()).
   */
  private async idf(
    q: Pick<IndexQuery, 'query' | 'frequencies' | 'scope'>,
    units: RawBuilder<unknown>[],
    keys: string[],
  ): Promise<number[]> {
    const learned = q.frequencies && learnedIdf(q.query, q.frequencies);
    if (learned) return learned;
    const { n, df } = await this.counts(q.scope, units, keys);
    return df.map((d) => engineIdf(d, n));
  }

  /**
   * The scope's documents, and how many of them (at most DF_CAP) match each unit: a community's
   * own, or the public documents' over the whole index's size (PostgreSQL's estimate of it, an
   * aggregate that says nothing of any private post). The counts are cached (bounded LRU) while
   * for a minute (COUNTS_TTL_MS), as SQLite's are: a few posts written meanwhile move an idf by
   * next to nothing, and a cached count costs no statement.
   */
  private async counts(
    scope: SearchScope,
    units: RawBuilder<unknown>[],
    keys: string[],
  ): Promise<{ n: number; df: number[] }> {
    const at = scope.kind === 'public' ? 'public' : [...scope.ids].sort().join(',');
    const cached = keys.map((k) => this.dfCache.get(`${at}\u0000${k}`, ''));
    let n = this.dfCache.get(`#n\u0000${at}`, '');
    const missing = units.flatMap((u, i) => (cached[i] === undefined ? [{ u, i }] : []));
    if (missing.length || n === undefined) {
      const where = scopeCondition(scope);
      const counts = missing.map(
        ({ u, i }) =>
          sql`(select count(*) from (select 1 from search_documents d where d.vector @@ ${u} and ${where} limit ${DF_CAP}) s) as ${sql.ref(`d${i}`)}`,
      );
      const size =
        scope.kind === 'public'
          ? sql`(select case when c.reltuples < 20000 then (select count(*) from search_documents) else c.reltuples::bigint end
             from pg_class c where c.oid = 'search_documents'::regclass)`
          : sql`(select count(*) from search_documents d where ${where})`;
      const r = await sql<Record<string, string | number>>`
        select ${counts.length ? sql`${sql.join(counts)},` : sql``} ${size} as n`.execute(this.db);
      const row = r.rows[0]!;
      n = Math.max(1, Number(row.n));
      this.dfCache.set(`#n\u0000${at}`, n, '');
      for (const { i } of missing) {
        cached[i] = Number(row[`d${i}`] ?? 0);
        this.dfCache.set(`${at}\u0000${keys[i]!}`, cached[i]!, '');
      }
    }
    return { n, df: cached.map((c) => c ?? 0) };
  }

  async wordFrequencies(words: string[], scope: SearchScope): Promise<Frequencies> {
    const unique = [...new Set(words)];
    const { units, keys } = components({
      terms: unique.map((word) => ({ word, alternatives: [] })),
      phrases: [],
      excluded: [],
    });
    const { n, df } = await this.counts(scope, units, keys);
    const byWord = new Map(unique.map((w, i) => [w, df[i]!]));
    return { topics: n, df: (w) => Math.max(1, byWord.get(w) ?? 1) };
  }

  cacheStats(): Record<string, number> {
    return { documentFrequencies: this.dfCache.size };
  }

  /** Every match ranked in one statement (./postgres-ranked.ts): an exact keyset page and the topic total. */
  async search(q: IndexQuery): Promise<{ hits: IndexHit[]; total: number }> {
    if (isEmpty(q.scope)) return { hits: [], total: 0 };
    const { hits, total } = await rankedPage(this.db, q, await this.matches(q));
    // A page past the end has no row to carry the total: count it with the first page.
    if (hits.length === 0 && q.after)
      return { hits, total: (await this.search({ ...q, after: undefined, limit: 1 })).total };
    return { hits, total };
  }

  /**
   * The re-ranked head's candidates, with or without filters: one statement that ranks every
   * match once and counts its topics. Faster here than a ranked pool and a separate count on two
   * connections: 110 vs 155 ms p50 at 100k posts on 2 cores, same results on every labelled question.
   */
  async candidates(
    q: Omit<IndexQuery, 'after'>,
    pool: number,
  ): Promise<{ hits: PoolHit[]; total: number }> {
    if (isEmpty(q.scope)) return { hits: [], total: 0 };
    return headCandidates(this.db, q, await this.matches(q), pool);
  }

  private async matches(q: Omit<IndexQuery, 'after'>): Promise<RawBuilder<unknown>> {
    const { units, ranked, keys, match } = components(q.query);
    const idf = await this.idf(q, units, keys);
    return rankedMatches(q, match, ranked.map(unitFrequency), idf);
  }

  async bare(q: ParsedQuery, limit: number): Promise<string[]> {
    const { match } = components(q);
    const r = await sql<{ post_id: string }>`
      select post_id from search_documents where vector @@ (${match})
      order by ts_rank(${PG_WEIGHTS}::float4[], vector, ${match}, 1) desc limit ${limit}`.execute(
      this.db,
    );
    return r.rows.map((x) => x.post_id);
  }

  /**
   * One statement per kind of word, one EXISTS per word. The planner costs an EXISTS over a rare or
   * unknown lexeme (default selectivity) as a short sequential scan and then reads every row of the
   * communities (150 ms at 100k posts when the word is nowhere), so for those the GIN index is
   * forced. For a word the learned lexicons hold in COMMON_SHARE of the topics the planner is left
   * to choose: a sequential scan stops at its first match (0.04 ms), where the GIN bitmap reads the
   * word's whole posting list first (the 47 bench questions at 100k posts: 6.5 → 2.3 ms per search).
   * The lexicons only pick the plan; every answer is the engine's. A stop word yields an empty
   * tsquery, matching nothing: not a typo, so never "unmatched" (nor looked up).
   */
  async unmatched(
    words: string[],
    scope: SearchScope,
    frequencies?: Frequencies,
  ): Promise<string[]> {
    if (words.length === 0) return [];
    if (isEmpty(scope)) return [...words];
    const common = (w: string) => frequencies !== undefined && heldBy(w, frequencies, COMMON_SHARE);
    const missing = new Set(
      (
        await Promise.all([
          this.missing(
            words.filter((w) => !common(w)),
            scope,
            true,
          ),
          this.missing(words.filter(common), scope, false),
        ])
      ).flat(),
    );
    return words.filter((w) => missing.has(w));
  }

  private async missing(words: string[], scope: SearchScope, gin: boolean): Promise<string[]> {
    if (words.length === 0) return [];
    const where = scopeCondition(scope);
    const statement = sql<Record<string, boolean>>`select ${sql.join(
      words.map(
        (w, i) => sql`
      numnode(plainto_tsquery('english', ${w})) = 0 as ${sql.ref(`e${i}`)},
      case when numnode(plainto_tsquery('english', ${w})) = 0 then false
        else exists (select 1 from search_documents d where d.vector @@ plainto_tsquery('english', ${w}) and ${where}) end as ${sql.ref(`h${i}`)}`,
      ),
    )}`;
    const r = gin
      ? await this.db
          .transaction()
          .setAccessMode('read only')
          .execute(async (tx) => {
            await sql`set local enable_seqscan = off`.execute(tx);
            return statement.execute(tx);
          })
      : await statement.execute(this.db);
    const row = r.rows[0]!;
    return words.filter((_, i) => !row[`e${i}`] && !row[`h${i}`]);
  }

  /**
   * Candidates from search_terms (every community's lexemes), nearest by trigram distance, that
   * pass the edit-distance test; each is then counted in the scope only (capped, cached per scope
   * like the idf's) and kept when it occurs there, most frequent first.
   */
  async corrections(word: string, scope: SearchScope, max = 3): Promise<string[]> {
    if (word.length < 4 || isEmpty(scope)) return [];
    if (this.trigram === undefined) {
      const r = await sql<{
        ok: boolean;
      }>`select exists (select 1 from pg_indexes where indexname = 'search_terms_trgm') as ok`.execute(
        this.db,
      );
      this.trigram = r.rows[0]!.ok;
    }
    let terms: string[];
    if (this.trigram) {
      // Nearest terms by trigram distance (GiST k-NN), then the exact edit-distance test.
      const r = await sql<{
        term: string;
      }>`select term from search_terms order by term <-> ${word} limit 40`.execute(this.db);
      terms = r.rows.map((x) => x.term);
    } else {
      const r = await sql<{ term: string }>`
        select term from search_terms where left(term, 1) in (${word[0]!}, ${word[1]!})
          and length(term) between ${Math.max(3, word.length - 4)} and ${word.length + 1}`.execute(
        this.db,
      );
      terms = r.rows.map((x) => x.term);
    }
    const found = terms.filter((t) => isCorrection(word, t));
    if (found.length === 0) return [];
    const at = scope.kind === 'public' ? 'public' : [...scope.ids].sort().join(',');
    const where = scopeCondition(scope);
    const key = (t: string) => `c:${at}:${t}`;
    const missing = found.filter((t) => this.dfCache.get(key(t), '') === undefined);
    if (missing.length) {
      // One statement for every candidate not counted yet.
      const r = await sql<Record<string, string>>`select ${sql.join(
        missing.map(
          (t, i) =>
            sql`(select count(*) from (select 1 from search_documents d where d.vector @@ plainto_tsquery('simple', ${t})
          and ${where} limit 1000) s) as ${sql.ref(`n${i}`)}`,
        ),
      )}`.execute(this.db);
      missing.forEach((t, i) => this.dfCache.set(key(t), Number(r.rows[0]![`n${i}`]), ''));
    }
    const counts = found.map((t) => [t, this.dfCache.get(key(t), '') ?? 0] as const);
    return counts
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, max)
      .map(([t]) => t);
  }

  async verify(): Promise<IndexReport> {
    const one = async (query: RawBuilder<{ n: string }>) =>
      Number((await query.execute(this.db)).rows[0]?.n ?? 0);
    const posts = await one(sql`select count(*) as n from posts`);
    const indexed = await one(sql`select count(*) as n from search_documents`);
    const missing = await one(
      sql`select count(*) as n from posts p where not exists (select 1 from search_documents d where d.post_id = p.id)`,
    );
    const orphans = await one(
      sql`select count(*) as n from search_documents d where not exists (select 1 from posts p where p.id = d.post_id)`,
    );
    const stale = await one(sql`
      select count(*) as n from search_documents d join posts p on p.id = d.post_id join topics t on t.id = p.topic_id
      where d.vector <> hamlet_search_vector(t.title, p.body, p.position = 1) or d.community_id <> p.community_id
         or d.created_at is distinct from p.created_at or d.position is distinct from p.position
         or d.author is distinct from lower(p.author_name) or d.category_id is distinct from t.category_id
         or d.solution is distinct from (case when t.solution_post_id = p.id then 2 when t.solution_post_id is not null then 1 else 0 end)`);
    return { posts, indexed, missing, stale, orphans };
  }
}
