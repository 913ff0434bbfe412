// Semantic search plumbing: an Embedder turns texts into vectors; nothing here downloads a model.
// Without a configured embedder, 'semantic' and 'hybrid' answer invalid_argument (see service.ts);
// with one that fails, they run lexically (./fallback.ts).
//
// How the modes run (see SearchService): the lexical engine, with every query word OR-ed, yields a
// candidate pool (default 200 topics); 'semantic' orders that pool by cosine similarity between
// the question and each candidate's text; 'hybrid' fuses the lexical order (what lexical search
// answers, its re-ranked head first) and the semantic order with reciprocal-rank fusion. This is
// re-ranking, not dense retrieval over the whole corpus: a document sharing no word (or
// typo-corrected word) with the query is not a candidate.

export interface Embedder {
  /** Shown in logs and benchmarks, e.g. "hash-64" or "glove-100d-trimmed". */
  readonly name: string;
  readonly dimensions: number;
  /** One unit-length (or any non-zero) vector per text; `signal` gives up waiting (searches do). */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Reciprocal-rank fusion: score(d) = Σ over lists of 1 / (k + rank(d)), rank starting at 1.
 * Returns ids ordered by fused score (ties: first list's order), with the fused scores.
 */
export function reciprocalRankFusion(lists: string[][], k = 60): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  let seen = 0;
  for (const list of lists) {
    list.forEach((id, i) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1));
      if (!firstSeen.has(id)) firstSeen.set(id, seen++);
    });
  }
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || firstSeen.get(a.id)! - firstSeen.get(b.id)!);
}

/**
 * A tiny deterministic embedder (feature hashing of word prefixes) for tests and as a baseline:
 * no model, no download. It captures word overlap only, not meaning.
 */
export class HashingEmbedder implements Embedder {
  readonly name: string;
  constructor(readonly dimensions = 64) {
    this.name = `hash-${dimensions}`;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => {
      const v = new Float32Array(this.dimensions);
      for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
        const key = w.slice(0, 6);
        let h = 2166136261;
        for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
        v[(h >>> 0) % this.dimensions]! += 1;
      }
      return v;
    });
  }
}
