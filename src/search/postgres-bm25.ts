// PostgreSQL's relevance as BM25, the way SQLite's hamlet_bm25 ranks (k1 1.2, b 0.75, each field's
// occurrences weighted 6 : 1.5 : 1 for the first post's title, the title on replies and the body),
// built from what a tsvector gives in SQL: per rankable unit (a word with its typo alternatives, or a
// phrase) the weighted term frequency is ts_rank without normalization, rescaled so that one body
// occurrence counts 1 and one first-post title occurrence 6; the document's length is its number of
// distinct lexemes (length(tsvector), read from its header), over the scope's average (a sample).
//
// What it replaced, measured on the labelled sets (bench/search-quality/RESULTS.md): idf × ts_rank
// with normalization 1 (rank / log2(1 + the length)) and weights 1 : 0.25 : 0.4. ts_rank's
// frequency saturates after one occurrence (the second adds a quarter of the first, the third a
// ninth) and its length penalty is logarithmic, so a long thread mentioning a question's words once
// each outranked the short post about them: PostgreSQL ranked the hard set's answers lower than SQLite
// (recall@5 0.53 against 0.75).
import { sql, type RawBuilder } from 'kysely';

/** ts_rank weights {D, C, B, A}: C = title on replies, B = body, A = first post's title (SQLite's 1.5 : 1 : 6). */
export const BM25_WEIGHTS = '{0.0, 0.25, 0.166667, 1.0}';
/**
 * ts_rank without normalization of one lexeme at one A position: its weight × (Σ 1/j² over the
 * positions, the best first) / (π²/6) = 1 / 1.644934. TF_SCALE makes that occurrence count 6 (and one
 * body occurrence 1), the frequencies hamlet_bm25 sums with its column weights.
 */
const TF_SCALE = 6 * 1.644934;
const K1 = 1.2;
const B = 0.75;

/** A rankable unit: its tsquery parts (a word and its alternatives, each ranked on its own and summed) and whether it is a phrase. */
export type RankUnit = { parts: RawBuilder<unknown>[]; phrase: boolean };

/**
 * A unit's weighted frequency in d.vector, and when to compute it (undefined: always). A word
 * group is computed only where the document matches one of its parts (the @@ test is much cheaper
 * than ts_rank; ~25% off the heavy questions' scan); a part whose tsquery holds an AND or a phrase
 * (a word the parser splits) is always ranked, as are phrases. Each part is ranked on its own:
 * ts_rank of an OR divides the sum of its lexemes by their number, which weighed a typo-corrected
 * word a third of the word typed right.
 */
export function unitFrequency(unit: RankUnit): {
  tf: RawBuilder<unknown>;
  when?: RawBuilder<unknown>;
} {
  const ranked = unit.parts.map(
    (p) => sql`ts_rank(${BM25_WEIGHTS}::float4[], d.vector, ${p}, 0)::float8`,
  );
  const tf = sql`(${sql.join(ranked, sql` + `)}) * ${sql.lit(TF_SCALE)}::float8`;
  if (unit.phrase) return { tf };
  const any = unit.parts.length === 1 ? unit.parts[0]! : sql`(${sql.join(unit.parts, sql` || `)})`;
  return {
    tf,
    when: sql`d.vector @@ ${any} or strpos((${any})::text, '&') > 0 or strpos((${any})::text, '<') > 0`,
  };
}

/**
 * Σ idf × tf × (k1 + 1) / (tf + k1 × (1 − b + b × len / avgdl)) over the units, len the document's
 * lexemes. Written (k1 + 1) / (1 + norm / tf) so that each frequency is computed once (a 0
 * frequency divides into null, counted 0), and only where its unit can match, in one select list
 * that the parallel scan's workers evaluate: an inner select of frequencies read by an outer rank
 * ran the arithmetic on the leader alone (+20% on the heaviest question at 100k posts).
 */
export function bm25Rank(
  units: { tf: RawBuilder<unknown>; when?: RawBuilder<unknown> }[],
  idf: number[],
  avgdl: RawBuilder<unknown>,
): RawBuilder<unknown> {
  if (units.length === 0) return sql`0::float8`;
  const norm = sql`(${sql.lit(K1)}::float8 * (${sql.lit(1 - B)}::float8 + ${sql.lit(B)}::float8 * length(d.vector)::float8 / ${avgdl}))`;
  return sql.join(
    units.map(({ tf, when }, i) => {
      const term = sql`${sql.lit(Number(idf[i]!.toFixed(6)))}::float8 * coalesce(${sql.lit(K1 + 1)}::float8 / (1.0::float8 + ${norm} / nullif(${tf}, 0::float8)), 0::float8)`;
      return when ? sql`(case when ${when} then ${term} else 0::float8 end)` : term;
    }),
    sql` + `,
  );
}
