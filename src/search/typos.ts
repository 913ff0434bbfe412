// Typo tolerance: query words with no hit in the search's scope get their index neighbours one edit
// away there (./vocabulary.ts), as alternatives the engine matches too.
import type { Frequencies, SearchIndex, SearchScope } from './index.ts';
import { nearStop } from './learned-idf.ts';
import type { ParsedQuery } from './query.ts';

/**
 * Query words with no hit in the scope get their neighbours one edit away there,
 * except near-stop words (nearStop) when another word of the query matches: such a neighbour
 * weighs next to nothing in any ranking while it widens the match to most of the communities.
 */
export async function expandTypos(
  index: SearchIndex,
  q: ParsedQuery,
  scope: SearchScope,
  frequencies: Frequencies | undefined,
): Promise<ParsedQuery> {
  if (q.terms.length === 0) return q;
  const candidates = q.terms.map((t) => t.word).filter((w) => w.length >= 4 && !/^\d+$/.test(w));
  if (candidates.length === 0) return q;
  const missing = new Set(await index.unmatched(candidates, scope, frequencies));
  if (missing.size === 0) return q;
  // Near-stop neighbours are kept when no other word matches: then they are all the query has.
  const others = missing.size < candidates.length;
  const kept = (a: string) => !others || !nearStop(a, frequencies);
  const terms = await Promise.all(
    q.terms.map(async (t) =>
      missing.has(t.word)
        ? {
            word: t.word,
            alternatives: (await index.corrections(t.word, scope)).filter(kept),
          }
        : t,
    ),
  );
  return { ...q, terms };
}
