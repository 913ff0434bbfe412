// How much each word of a question weighs, from what the searched communities' learned lexicons
// know of it (./lexicon.ts: topics holding each of our stemmer's terms), with no query to the
// engine. PostgreSQL's rank weighs its per-word ts_rank by it; the head's re-ranking (./rerank.ts)
// uses the same idf.
import type { Frequencies } from './index.ts';
import type { ParsedQuery } from './query.ts';
import { contentTerms } from './terms.ts';

/** BM25's inverse document frequency; never negative (a df above n counts as n). */
export function idfOf(df: number, n: number): number {
  return Math.log(1 + (Math.max(n, df) - df + 0.5) / (df + 0.5));
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
      return parts.length ? Math.min(f.topics, parts.reduce((a, b) => a + b, 0)) : undefined;
    }),
    ...q.phrases.map((p) => rarest(p.join(' '))),
  ];
  if (dfs.some((d) => d === undefined)) return undefined;
  return dfs.map((df) => idfOf(df!, f.topics));
}
