// How much each word of a question weighs, from what the searched communities' learned lexicons
// know of it (./lexicon.ts: topics holding each of our stemmer's terms), with no query to the
// engine. PostgreSQL's rank weighs its per-word ts_rank by it; the head's re-ranking (./rerank.ts)
// uses the same idf; typo expansion (./service.ts) leaves out neighbours that weigh next to nothing,
// and PostgreSQL's typo check (./postgres-index.ts) picks its plan by how common a word is.
import type { Frequencies } from './index.ts';
import { STOP_WORDS, type ParsedQuery } from './query.ts';
import { contentTerms } from './terms.ts';

/** BM25's inverse document frequency; never negative (a df above n counts as n). */
export function idfOf(df: number, n: number): number {
  return Math.log(1 + (Math.max(n, df) - df + 0.5) / (df + 0.5));
}

/**
 * The fewest documents an engine's idf assumes a scope has. A scope ranks by its own statistics,
 * and in a community of five posts a word in two of them is not a common word, only a small
 * sample: weighed as in a scope of this size, its matches score as a match does anywhere, while
 * the order within the scope still follows its own counts. Larger scopes are unaffected.
 */
export const IDF_MIN_DOCUMENTS = 1000;

/** The idf an engine ranks a scope's matches by (idfOf over at least IDF_MIN_DOCUMENTS documents). */
export function engineIdf(df: number, n: number): number {
  return idfOf(df, Math.max(n, IDF_MIN_DOCUMENTS));
}

/**
 * FTS5's bm25 idf, ln((N − n + 0.5) / (n + 0.5)), at least 1e-6 (a word in half the documents or
 * more weighs next to nothing), over at least IDF_MIN_DOCUMENTS documents: what SQLite ranks by,
 * with the scope's own counts.
 */
export function fts5Idf(df: number, n: number): number {
  const docs = Math.max(n, IDF_MIN_DOCUMENTS);
  return Math.max(1e-6, Math.log((docs - df + 0.5) / (df + 0.5)));
}

/**
 * idf per rankable unit (each word group, then each phrase) from the learned lexicons: a word is
 * as common as the topics holding it, its typo alternatives added (an OR); a word our stemmer
 * splits, or a phrase, as its rarest term (an AND). Undefined when a unit has no term of ours (a
 * word only our stop list drops): then the engine counts every unit instead, so all share one scale.
 */
export function learnedIdf(q: ParsedQuery, f: Frequencies): number[] | undefined {
  const rarest = (text: string) => {
    const terms = contentTerms(text);
    return terms.length ? Math.min(...terms.map((t) => f.df(t))) : undefined;
  };
  const dfs = [
    ...q.terms.map((t) => {
      const parts = [t.word, ...t.alternatives].map(rarest).filter((d) => d !== undefined);
      return parts.length
        ? Math.min(
            f.topics,
            parts.reduce((a, b) => a + b, 0),
          )
        : undefined;
    }),
    ...q.phrases.map((p) => rarest(p.join(' '))),
  ];
  if (dfs.some((d) => d === undefined)) return undefined;
  return dfs.map((df) => engineIdf(df!, f.topics));
}

/**
 * A typo neighbour held by at least this share of the searched communities' topics (their learned
 * lexicons) is a near-stop word: FTS5's bm25 gives a word in half the documents no weight (its idf
 * is clamped at zero) and the learned idf (idfOf, above) at most log 2, against ~6.5 for a word
 * in one topic in a thousand.
 */
const NEAR_STOP_SHARE = 0.5;

/**
 * Whether a typo neighbour is a stop word of the query parser (never searched for itself) or, when
 * the communities' lexicons are learned, has every content term in NEAR_STOP_SHARE of their topics.
 */
export function nearStop(word: string, f: Frequencies | undefined): boolean {
  return STOP_WORDS.has(word) || (f !== undefined && heldBy(word, f, NEAR_STOP_SHARE));
}

/** Whether every content term of the word is in at least `share` of the communities' topics (none: false). */
export function heldBy(word: string, f: Frequencies, share: number): boolean {
  const terms = contentTerms(word);
  return terms.length > 0 && terms.every((t) => f.df(t) >= share * f.topics);
}
