// Search quality on the ham corpus: recall@5 and MRR (over the top 10) of every question in
// questions.json, per mode, on the engine of DATABASE_URL (default: a fresh SQLite file).
//   node --import tsx bench/search-quality/evaluate.ts                       # SQLite
//   DATABASE_URL=postgres://… node --import tsx bench/search-quality/evaluate.ts
//   SEARCH_EVAL_VERBOSE=1 …   prints each question's rank and the top results of misses
// The semantic and hybrid rows use HashingEmbedder (feature hashing, no model): a baseline for
// the fusion plumbing, not a semantic model.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadHam } from './corpus.ts';
import { SearchService } from '../../src/search/service.ts';
import { HashingEmbedder } from '../../src/search/embedder.ts';
import type { SearchMode } from '../../src/search/types.ts';

type Question = { q: string; threads: string[] };
const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
const { questions } = JSON.parse(readFileSync(new URL('./questions.json', import.meta.url), 'utf8')) as { questions: Question[] };

const dir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'hamlet-quality-'));
const url = process.env.DATABASE_URL ?? `sqlite:${join(dir!, 'quality.db')}`;
const verbose = process.env.SEARCH_EVAL_VERBOSE === '1';
const { store, community, searchService } = await loadHam(url);
try {
  const lexical = searchService();
  const withEmbedder = searchService({ embedder: new HashingEmbedder(256) });
  // Every labelled thread must exist in the imported corpus.
  const titles = new Set<string>();
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await store.community(community.id).topics.list({ sort: 'created', limit: 1000, after: cursor ? JSON.parse(cursor) : undefined });
    for (const t of page.items) titles.add(norm(t.title));
    cursor = page.next ? JSON.stringify(page.next) : undefined;
  }
  const missing = questions.flatMap((x) => x.threads).filter((t) => !titles.has(norm(t)));
  if (missing.length) console.log(`labelled threads not in the corpus: ${missing.join(' | ')}`);

  const rows: string[] = [];
  for (const [label, service, mode] of [
    ['lexical', lexical, 'lexical'],
    ['hybrid (hash-256 baseline)', withEmbedder, 'hybrid'],
    ['semantic (hash-256 baseline)', withEmbedder, 'semantic'],
  ] as [string, SearchService, SearchMode][]) {
    let hits5 = 0;
    let rr = 0;
    const started = performance.now();
    for (const { q, threads } of questions) {
      const gold = new Set(threads.map(norm));
      const r = await service.search([community], q, { limit: 10 }, mode);
      const rank = r.results.findIndex((x) => gold.has(norm(x.title))) + 1;
      if (rank >= 1 && rank <= 5) hits5++;
      if (rank >= 1) rr += 1 / rank;
      if (verbose) {
        console.log(`${mode} rank ${rank || '-'}  ${q}`);
        if (rank !== 1) for (const x of r.results.slice(0, 3)) console.log(`      ${x.score} ${x.title}`);
      }
    }
    const ms = (performance.now() - started) / questions.length;
    rows.push(`${store.dialect.padEnd(9)} ${label.padEnd(30)} recall@5 ${(hits5 / questions.length).toFixed(3)}  MRR@10 ${(rr / questions.length).toFixed(3)}  (${questions.length} questions, ${ms.toFixed(1)} ms/query)`);
  }
  console.log(rows.join('\n'));
} finally {
  await store.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
