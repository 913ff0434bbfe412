// The semantic and hybrid orders: a lexical candidate pool (every query word OR-ed) ordered by the
// cosine similarity of the question and each candidate ('semantic'), or that order fused with what
// lexical search answers by reciprocal-rank fusion ('hybrid'). See ./embedder.ts. An embedder that
// fails raises EmbedderUnavailable (the service then searches lexically, ./fallback.ts).
import type { IndexHit } from './index.ts';
import { cosine, reciprocalRankFusion, type Embedder } from './embedder.ts';
import { words, type ParsedQuery } from './query.ts';
import { inHeadOrder, type ScopeKnowledge } from './rerank.ts';
import { rerankedHead, type Reranking } from './reranked.ts';
import type { EngineRequest } from './request.ts';
import { round4 } from './results.ts';
import { plainText } from './snippet.ts';
import { EmbedderUnavailable, QUERY_EMBEDDING_TIMEOUT_MS } from './fallback.ts';
import type { SearchMode } from './types.ts';

export type Semantic = Reranking & {
  embedder: Embedder;
  /** Stored post vectors of the embedder; absent → candidates are embedded per query. */
  vectors?: { get(postIds: string[]): Promise<Map<string, Float32Array>> };
  /** Candidate topics re-ranked (default 200). */
  semanticPool?: number;
};

export async function semanticOrder(
  s: Semantic,
  request: EngineRequest,
  knowledge: ScopeKnowledge,
  query: string,
  mode: Exclude<SearchMode, 'lexical'>,
): Promise<{ hits: IndexHit[]; ordered: { id: string; score: number }[]; embedded: boolean }> {
  const parsed = request.query;
  // Widen the pool: every word of the question (stop words aside) may bring candidates.
  const wide: ParsedQuery = {
    ...parsed,
    terms: parsed.terms.length
      ? parsed.terms
      : words(query).map((w) => ({ word: w, alternatives: [] })),
  };
  const { hits } = await s.index.search({
    ...request,
    query: wide,
    limit: s.semanticPool ?? 200,
  });
  if (hits.length === 0) return { hits, ordered: [], embedded: false };
  const embed = async (texts: string[]) => {
    try {
      return await s.embedder.embed(texts, {
        signal: AbortSignal.timeout(QUERY_EMBEDDING_TIMEOUT_MS),
      });
    } catch (err) {
      throw new EmbedderUnavailable(err);
    }
  };
  let sims: { id: string; sim: number }[];
  if (s.vectors) {
    // Stored vectors; a post the background fill has not reached yet has no semantic rank.
    const [[qv], stored] = await Promise.all([
      embed([query]),
      s.vectors.get(hits.map((h) => h.postId)),
    ]);
    sims = hits.flatMap((h) =>
      stored.has(h.postId) ? [{ id: h.postId, sim: cosine(qv!, stored.get(h.postId)!) }] : [],
    );
  } else {
    const texts = hits.map((h) => `${h.title}\n${plainText(h.body).slice(0, 2000)}`);
    const [qv, ...dv] = await embed([query, ...texts]);
    sims = hits.map((h, i) => ({ id: h.postId, sim: cosine(qv!, dv[i]!) }));
  }
  sims.sort((a, b) => b.sim - a.sim);
  if (mode === 'semantic') {
    const ranked = new Set(sims.map((x) => x.id));
    const rest = hits.filter((h) => !ranked.has(h.postId)).map((h) => ({ id: h.postId, sim: 0 }));
    return {
      hits,
      ordered: [...sims, ...rest].map((x) => ({ id: x.id, score: round4(Math.max(0, x.sim)) })),
      embedded: true,
    };
  }
  // Hybrid fuses what lexical search would answer (the re-ranked head first) with the semantic
  // order; fusing the engine's raw order instead was worse on every labelled set.
  const k = 60;
  const lexical =
    parsed.terms.length === 0 || s.ranking?.threadFields === false
      ? hits.map((h) => h.postId)
      : inHeadOrder(hits, (await rerankedHead(s, request, knowledge)).head);
  const fused = reciprocalRankFusion([lexical, sims.map((x) => x.id)], k);
  const best = 2 / (k + 1);
  return {
    hits,
    ordered: fused.map((f) => ({ id: f.id, score: round4(f.score / best) })),
    embedded: true,
  };
}
