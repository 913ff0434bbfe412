// Re-ranking of the head of a lexical result list (the best HEAD topics among the engine's best
// posts, SearchIndex.candidates) by the whole thread, read from its stored profile
// (./profiles.ts), for questions worded differently from the post that answers them:
//
//   thread fields   BM25F over the topic's title, question (first post), accepted answer and
//                   replies, each field with its own weight, idf from the search's statistics (a
//                   community's learned document frequencies, ./lexicon.ts; the network's counted)
//   feedback        RM3-style pseudo-relevance feedback: the terms that characterize the best
//                   FEEDBACK_DOCS threads of the head join the question, weighted FEEDBACK_WEIGHT
//   associations    each question term brings its learned related terms (./lexicon.ts), weighted
//                   ASSOCIATION_WEIGHT × the association's strength
//
// Expansion terms always weigh less than the question's own words, so an exact match still wins.
// Thread fields are on by default; feedback and associations are options (bench/search-quality
// measured them: neither improved the held-out set on both engines, see RESULTS.md).
// The final order blends the engine's relevance (normalized by the head's best) with the thread
// score (normalized the same way); only the order within the head changes, never which topics
// match or the total.
import type { Frequencies } from './index.ts';
import { idfOf } from './learned-idf.ts';
import type { Learned } from './lexicon.ts';
import { FIELDS as FIELD_NAMES, countsOf, decodeProfile, type Profile } from './profiles.ts';
import type { ParsedQuery } from './query.ts';
import { contentTerms } from './terms.ts';

export type RerankOptions = {
  /** Re-rank the head by thread fields (default true); the other two parts need it. */
  threadFields?: boolean;
  /** Pseudo-relevance feedback terms (default false: measured, it did not improve the frozen set). */
  feedback?: boolean;
  /** Learned term associations (default false: measured, they did not improve the frozen set on both engines). */
  associations?: boolean;
  /** Weight of the thread score against the engine's relevance (default THREAD_WEIGHT); tuning on the dev set only. */
  threadWeight?: number;
  /** Field weights: title, question, accepted answer, replies (default FIELD_WEIGHTS). */
  fieldWeights?: readonly [number, number, number, number];
  /** Weights of feedback and association terms (defaults FEEDBACK_WEIGHT, ASSOCIATION_WEIGHT). */
  feedbackWeight?: number;
  associationWeight?: number;
};

/** Topics re-ranked at the top of a lexical result list. */
export const HEAD = 30;
/** Field weights, in the profiles' field order (title, question, answer, replies). */
const FIELD_WEIGHTS = [3, 1, 1, 0.3] as const;
const K1 = 1.2;
const B = 0.75;
/** Weight of the thread score against the engine's relevance (both normalized to the head's best). */
const THREAD_WEIGHT = 0.5;
const FEEDBACK_DOCS = 10;
const FEEDBACK_TERMS = 10;
const FEEDBACK_WEIGHT = 0.2;
const ASSOCIATION_WEIGHT = 0.1;

/** What the re-ranking needs of a head entry. */
export type HeadHit = { postId: string; topicId: string; communityId: string; raw: number };

/**
 * What a search knows of its scope's words: the learned lexicons (a search of one community; their
 * associations and frequencies serve the optional parts), and the frequencies the thread fields
 * are weighed by (the community's learned ones; a network search's counted ones; none yet: every
 * word weighs the same).
 */
export type ScopeKnowledge = { learned: Map<string, Learned>; frequencies?: Frequencies };

/** The head in its new order, each hit's raw relevance replaced by the blended one (same scale). */
export function rerankHead<T extends HeadHit>(
  hits: T[],
  threads: Map<string, Profile>,
  query: ParsedQuery,
  knowledge: ScopeKnowledge,
  options: RerankOptions = {},
): T[] {
  const { learned, frequencies } = knowledge;
  if (options.threadFields === false || hits.length < 2) return hits;
  const fieldWeights = options.fieldWeights ?? FIELD_WEIGHTS;
  const threadWeight = options.threadWeight ?? THREAD_WEIGHT;
  const feedbackWeight = options.feedbackWeight ?? FEEDBACK_WEIGHT;
  const associationWeight = options.associationWeight ?? ASSOCIATION_WEIGHT;
  const weights = new Map<string, number>();
  for (const t of query.terms) {
    for (const w of contentTerms(t.word)) weights.set(w, 1);
    for (const a of t.alternatives)
      for (const w of contentTerms(a)) if (!weights.has(w)) weights.set(w, 0.5);
  }
  for (const w of contentTerms(query.phrases.flat().join(' '))) weights.set(w, 1);
  if (weights.size === 0) return hits;
  const own = [...weights.keys()];
  const models = [...learned.values()];
  const dfOf = (term: string) => frequencies?.df(term) ?? 1;

  if (options.associations === true) {
    for (const w of own) {
      for (const m of models) {
        for (const [related, strength] of m.related(w)) {
          if (weights.get(related) === 1) continue;
          weights.set(related, Math.max(weights.get(related) ?? 0, associationWeight * strength));
        }
      }
    }
  }
  if (options.feedback === true) {
    const best = hits[0]!.raw || 1;
    const model = new Map<string, number>();
    for (const h of hits.slice(0, FEEDBACK_DOCS)) {
      const t = threads.get(h.topicId);
      if (!t) continue;
      const length = t.lengths.reduce((s, n, f) => s + n * fieldWeights[f]!, 0);
      for (const [w, c] of decodeProfile(t)) {
        const n = c.reduce((s, x, f) => s + x * fieldWeights[f]!, 0);
        model.set(w, (model.get(w) ?? 0) + (n / Math.max(1, length)) * (h.raw / best));
      }
    }
    const scored = [...model]
      .filter(([w]) => weights.get(w) !== 1 && models.some((m) => (m.df.get(w) ?? 0) >= 2))
      .map(
        ([w, p]) =>
          [w, p * Math.max(...models.map((m) => idfOf(m.df.get(w) ?? 1, m.topics)))] as const,
      )
      .sort((a, b) => b[1] - a[1])
      .slice(0, FEEDBACK_TERMS);
    const top = scored[0]?.[1] ?? 1;
    for (const [w, v] of scored)
      weights.set(w, Math.max(weights.get(w) ?? 0, (feedbackWeight * v) / top));
  }

  // Average field lengths over the head (the community's averages are not kept).
  const avg = [0, 0, 0, 0];
  for (const h of hits) {
    const t = threads.get(h.topicId);
    if (t) for (let f = 0; f < FIELD_NAMES.length; f++) avg[f]! += t.lengths[f]! / hits.length;
  }
  const threadScore = (h: T) => {
    const t = threads.get(h.topicId);
    if (!t) return 0;
    const n = frequencies?.topics ?? hits.length;
    let s = 0;
    for (const [w, qw] of weights) {
      const c = countsOf(t, w);
      if (!c) continue;
      let tf = 0;
      for (let f = 0; f < FIELD_NAMES.length; f++) {
        if (c[f])
          tf += (fieldWeights[f]! * c[f]!) / (1 - B + (B * (t.lengths[f]! + 1)) / (avg[f]! + 1));
      }
      if (tf > 0) s += (qw * idfOf(dfOf(w), n) * tf) / (K1 + tf);
    }
    return s;
  };
  const scores = hits.map(threadScore);
  const bestRaw = Math.max(...hits.map((h) => h.raw)) || 1;
  const bestThread = Math.max(...scores) || 1;
  return hits
    .map((h, i) => ({ h, s: h.raw / bestRaw + (threadWeight * scores[i]!) / bestThread }))
    .sort((a, b) => b.s - a.s || (a.h.postId < b.h.postId ? -1 : 1))
    .map(({ h, s }) => ({ ...h, raw: (s / (1 + threadWeight)) * bestRaw }));
}

/** Pool posts in the lexical mode's order: topics of the re-ranked head first, in its order; then the pool's own order. */
export function inHeadOrder(
  pool: readonly { postId: string; topicId: string }[],
  head: readonly { topicId: string }[],
): string[] {
  const at = new Map<string, number>();
  head.forEach((h, i) => at.has(h.topicId) || at.set(h.topicId, i));
  return pool
    .map((h, i) => ({ id: h.postId, key: at.get(h.topicId) ?? head.length + i }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.id);
}
