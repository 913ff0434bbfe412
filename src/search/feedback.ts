// Pseudo-relevance feedback (RM3-like) for a weak first pass: when a search's first page looks weak
// (see weakPass), the threads of its best results are read (their stored profiles, ./profiles.ts),
// the terms that characterize them are weighed as RM3 does (each thread's term share × its score,
// summed; × the term's idf where the community's lexicon knows it), the best of them are added to
// the question, that query is searched again in the same scope with the same filters, and the two
// rankings are fused by reciprocal rank, the question's own weighing ORIGINAL_WEIGHT (RM3's
// interpolation of the original query with the feedback model; the engines take no weight per word).
// Feedback documents are results of the first pass, so they come from the search's own scope: a
// search never learns words from a community it may not read.
import { contentTerms } from './terms.ts';
import { idfOf } from './learned-idf.ts';
import { fuse, type Found } from './fusion.ts';
import { FIELDS, decodeProfile, type Profile, type Profiles } from './profiles.ts';
import type { Frequencies, SearchScope } from './index.ts';
import { frequenciesOf, type Lexicon } from './lexicon.ts';
import type { SearchFilters, SearchResponse } from './types.ts';

export type FeedbackOptions = {
  /** When to search again: only after a weak first pass (default), or always (measurement). */
  when?: 'weak' | 'always';
  /** Threads read from the top of the first pass (default FEEDBACK_DOCS). */
  docs?: number;
  /** Terms added to the question (default FEEDBACK_TERMS). */
  terms?: number;
  /** Weight of the question's own ranking in the fusion (default ORIGINAL_WEIGHT). */
  originalWeight?: number;
};

export const FEEDBACK_DOCS = 5;
export const FEEDBACK_TERMS = 8;
export const ORIGINAL_WEIGHT = 2;
/** A first pass is weak when it finds fewer topics than this … */
export const WEAK_TOTAL = 5;
/** … or its best result scores below this (scores are in [0, 1], 0.5 at the engine's half point). */
export const WEAK_TOP_SCORE = 0.35;
/** Field weights of a thread's terms (title, question, answer, replies), as the head's re-ranking weighs them. */
const FIELD_WEIGHTS = [3, 1, 1, 0.3] as const;

/** Whether a first page is weak: few matching topics, or a best score below WEAK_TOP_SCORE. */
export function weakPass(r: SearchResponse): boolean {
  if (r.results.length === 0) return false;
  return r.total < WEAK_TOTAL || r.results[0]!.score < WEAK_TOP_SCORE;
}

/**
 * The feedback terms of the first pass's best threads, best first: RM3's relevance model
 * P(w|R) = Σ_d P(w|d) × P(d|q), P(w|d) a term's share of the thread's weighted terms, P(d|q) the
 * result's score over the best one's; × idf where frequencies are known. Only terms of at least two
 * of the threads (one thread's vocabulary is not the question's topic), none of the question's own.
 */
export function feedbackTerms(
  ranked: { topicId: string; score: number }[],
  profiles: Map<string, Profile>,
  question: string,
  count: number,
  frequencies?: Frequencies,
): string[] {
  const own = new Set(contentTerms(question));
  const best = ranked[0]?.score || 1;
  const model = new Map<string, { p: number; docs: number }>();
  for (const { topicId, score } of ranked) {
    const profile = profiles.get(topicId);
    if (!profile) continue;
    const length = profile.lengths.reduce((s, n, f) => s + n * FIELD_WEIGHTS[f]!, 0) || 1;
    for (const [term, counts] of decodeProfile(profile)) {
      if (own.has(term)) continue;
      let n = 0;
      for (let f = 0; f < FIELDS.length; f++) n += counts[f]! * FIELD_WEIGHTS[f]!;
      const m = model.get(term) ?? { p: 0, docs: 0 };
      m.p += (n / length) * (score / best);
      m.docs += 1;
      model.set(term, m);
    }
  }
  const weight = (term: string, p: number) =>
    frequencies ? p * idfOf(frequencies.df(term), frequencies.topics) : p;
  return [...model]
    .filter(([, m]) => m.docs >= 2)
    .map(([term, m]) => [term, weight(term, m.p)] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([term]) => term);
}

/**
 * The first pass, or (when it is weak, or always if asked) the first pass fused with the question
 * searched again with its feedback terms. A cursor's page is never re-searched (a fused search is
 * one page), nor is a first pass without results.
 */
export async function withFeedback<P>(
  first: Found<P>,
  find: (query: string, filters: SearchFilters) => Promise<Found<P>>,
  read: { profiles: Profiles; lexicon: Lexicon; scope: SearchScope },
  query: string,
  filters: SearchFilters,
  options: FeedbackOptions,
): Promise<Found<P>> {
  const r = first.response;
  if (filters.cursor || r.results.length === 0) return first;
  if ((options.when ?? 'weak') === 'weak' && !weakPass(r)) return first;
  const top = r.results
    .slice(0, options.docs ?? FEEDBACK_DOCS)
    .map((x) => ({ topicId: x.topic_id, score: x.score }));
  const profiles = await read.profiles.read(top.map((t) => t.topicId));
  // One community's terms are weighed by its learned frequencies; any other scope's are not.
  const { scope } = read;
  const one = scope.kind === 'communities' && scope.ids.length === 1 ? scope.ids : [];
  const frequencies = one.length ? frequenciesOf(read.lexicon.learned(one), one) : undefined;
  const terms = feedbackTerms(top, profiles, query, options.terms ?? FEEDBACK_TERMS, frequencies);
  if (terms.length === 0) return first;
  const second = await find(`${query} ${terms.join(' ')}`, filters);
  const limit = filters.limit ?? 10;
  return {
    ...first,
    response: {
      ...fuse([r, second.response], limit, [options.originalWeight ?? ORIGINAL_WEIGHT, 1]),
      query: r.query,
    },
  };
}
