// Search speed: p50/p95 of SearchService.search (end to end: validation, typo check and expansion,
// ranking with boosts, community filter, one hit per topic, exact total, snippets) against the bare
// engine query on the same data, at growing sizes, in one run. Bare = the same question's match
// expression, ranked by the engine alone (SQLite: weighted bm25() top 10, which FTS5 answers faster
// than ORDER BY rank; PostgreSQL: ts_rank top 10), no community filter, no boosts, no grouping, no
// total, no typo check. Also printed: end to end with typo expansion off, and two filtered searches
// (a filter every post passes: the filtered path's own cost; solved_only: a filter that selects).
// The search index keeps in-process caches (SQLite: typo-correction vocabulary; PostgreSQL:
// document frequencies, see src/search/vocabulary.ts). The measured services are readied as a started server is
// (SearchService.ready: thread profiles stored, lexicon learned, the SQLite vocabulary loaded; each
// timed and reported); end to end is printed for round 1 (the first time each question is asked:
// per-question caches such as PostgreSQL's document frequencies are cold) and for the later rounds,
// and each round beside its own bare (the machine's load moves both between rounds).
//   node --import tsx bench/search.ts                                   # SQLite, 10k and 100k posts
//   SEARCH_BENCH_SIZES=10000,100000,1000000 node --import tsx bench/search.ts
//   DATABASE_URL=postgres://… node --import tsx bench/search.ts         # PostgreSQL (a fresh database)
//   SEARCH_BENCH_LIGHT=1 …          only bare, end to end and filtered (1M posts: opt-in, ~30-60 min)
//   SEARCH_BENCH_PG_SERIAL=1 …      PostgreSQL without parallel workers on either side
// Posts are synthesized from the ham corpus' vocabulary (unigram frequencies of its bodies), in
// topics of 1-8 posts; the queries are the 47 natural-language questions of search-quality.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { loadConfig } from '../src/config/config.ts';
import { openDatabase } from '../src/store/open.ts';
import { hamCorpusDirs } from '../src/import/ham-corpus.ts';
import { SearchService, type SearchOptions } from '../src/search/service.ts';
import { createSearchIndex } from '../src/search/engine.ts';
import { parseQuery } from '../src/search/query.ts';

const sizes = (process.env.SEARCH_BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const rounds = Number(process.env.SEARCH_BENCH_ROUNDS ?? 3);
// SEARCH_BENCH_LIGHT=1 (for 1M posts): only bare, end to end and filtered.
const light = process.env.SEARCH_BENCH_LIGHT === '1';
const serial = process.env.SEARCH_BENCH_PG_SERIAL === '1';
const { questions } = JSON.parse(
  readFileSync(new URL('./search-quality/questions.json', import.meta.url), 'utf8'),
) as { questions: { q: string }[] };

// Vocabulary with frequencies from the real corpus.
function vocabulary(): { words: string[]; cumulative: Float64Array } {
  const counts = new Map<string, number>();
  for (const dir of hamCorpusDirs() ?? []) {
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.txt'))) {
      const text = readFileSync(join(dir, f), 'latin1');
      const body = text.slice(text.indexOf('\n\n') + 2, 20000).toLowerCase();
      for (const w of body.match(/[a-z][a-z0-9']{1,20}/g) ?? [])
        counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const entries = [...counts].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) throw new Error('The ham corpus is missing: npm install.');
  const cumulative = new Float64Array(entries.length);
  let total = 0;
  entries.forEach(([, n], i) => (cumulative[i] = total += n));
  return { words: entries.map(([w]) => w), cumulative };
}

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
function sampler(v: { words: string[]; cumulative: Float64Array }) {
  const total = v.cumulative[v.cumulative.length - 1]!;
  return (n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const x = random() * total;
      let lo = 0;
      let hi = v.cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (v.cumulative[mid]! < x) lo = mid + 1;
        else hi = mid;
      }
      out.push(v.words[lo]!);
    }
    return out.join(' ');
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

// SEARCH_BENCH_DB=/path/file.db keeps the SQLite file and reuses the posts already in it.
const keep = process.env.SEARCH_BENCH_DB;
const dir =
  process.env.DATABASE_URL || keep
    ? undefined
    : mkdtempSync(join(tmpdir(), 'hamlet-search-bench-'));
// SEARCH_BENCH_PG_SERIAL=1: no parallel workers on any connection, for either side (on 2 shared
// cores the bare query's Gather otherwise borrows CPU the materialized pool query cannot use).
const pgUrl =
  process.env.DATABASE_URL && serial
    ? `${process.env.DATABASE_URL}${process.env.DATABASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c max_parallel_workers_per_gather=0')}`
    : process.env.DATABASE_URL;
const url = pgUrl ?? (keep ? `sqlite:${keep}` : `sqlite:${join(dir!, 'bench.db')}`);
const config = loadConfig({ DATABASE_URL: url });
const opened = await openDatabase(url);
const store = opened.store;
const db = opened.db as any;
const newSearch = (options?: SearchOptions) =>
  new SearchService(store, createSearchIndex(opened.db, opened.dialect), config, options);
const text = sampler(vocabulary());
const reuse = await store.communities.getBySlug('bench');
const community =
  reuse ?? (await store.communities.create({ slug: 'bench', name: 'Bench', visibility: 'public' }));
const category = reuse
  ? await db
      .selectFrom('categories')
      .selectAll()
      .where('community_id', '=', community.id)
      .executeTakeFirstOrThrow()
  : await store
      .community(community.id)
      .categories.create({ slug: 'general', name: 'General', kind: 'discussion' });
const author = { author_kind: 'person', author_id: null, author_name: 'Bench' };

let posts = reuse
  ? Number(
      (
        await db
          .selectFrom('posts')
          .select(db.fn.countAll().as('n'))
          .where('community_id', '=', community.id)
          .executeTakeFirst()
      ).n,
    )
  : 0;
let topicNo = reuse
  ? Number(
      (
        await db
          .selectFrom('topics')
          .select(db.fn.countAll().as('n'))
          .where('community_id', '=', community.id)
          .executeTakeFirst()
      ).n,
    )
  : 0;
if (reuse) for (let i = 0; i < posts * 60; i++) random(); // not the same stream, but different texts
console.log(
  `engine ${store.dialect}; sizes ${sizes.join(', ')}; ${questions.length} queries × ${rounds} rounds`,
);
try {
  for (const size of sizes) {
    const started = performance.now();
    while (posts < size) {
      const batchTopics: any[] = [];
      const batchPosts: any[] = [];
      while (batchPosts.length < 400 && posts + batchPosts.length < size) {
        const id = randomUUID();
        const n = Math.min(1 + Math.floor(random() * 8), size - posts - batchPosts.length);
        const at = new Date(Date.UTC(2002, 0, 1) + Math.floor(random() * 3e10)).toISOString();
        batchTopics.push({
          id,
          community_id: community.id,
          category_id: category.id,
          slug: `t-${topicNo++}`,
          title: text(3 + Math.floor(random() * 6)),
          ...author,
          status: 'open',
          solution_post_id: null,
          post_count: n,
          created_at: at,
          updated_at: at,
          last_posted_at: at,
        });
        for (let p = 1; p <= n; p++) {
          batchPosts.push({
            id: randomUUID(),
            community_id: community.id,
            topic_id: id,
            position: p,
            ...author,
            body: text(20 + Math.floor(random() * 130)),
            created_at: at,
            edited_at: null,
          });
        }
        if (n >= 2 && random() < 0.3)
          batchTopics[batchTopics.length - 1].solution_post_id =
            batchPosts[batchPosts.length - 1].id;
      }
      await db.transaction().execute(async (t: any) => {
        const solutions = batchTopics.map((x) => [x.id, x.solution_post_id]);
        await t
          .insertInto('topics')
          .values(batchTopics.map((x) => ({ ...x, solution_post_id: null })))
          .execute();
        await t.insertInto('posts').values(batchPosts).execute();
        for (const [id, sol] of solutions)
          if (sol)
            await t
              .updateTable('topics')
              .set({ solution_post_id: sol })
              .where('id', '=', id)
              .execute();
      });
      posts += batchPosts.length;
    }
    // As autovacuum leaves a table after a bulk load: statistics, and the GIN index's pending list
    // merged (left unmerged, every GIN scan reads the whole list: the bare query and ours alike).
    if (store.dialect === 'postgres') await sql`vacuum analyze`.execute(db);
    const loadSeconds = (performance.now() - started) / 1000;

    const e2e: number[] = [];
    const e2eCold: number[] = [];
    const e2eNoTypo: number[] = [];
    const bare: number[] = [];
    // Per round, bare and end to end side by side: a round's ratio against its own bare, so a
    // change of the machine's load between rounds is not read as a change of the product.
    const perRound: { bare: number[]; e2e: number[] }[] = [];
    // Warm the engine (page cache, plans) through another service instance.
    const warm = newSearch();
    for (const { q } of questions.slice(0, 5)) {
      await warm.search([community], q, { limit: 10 });
      await warm.index.bare(parseQuery(q), 10);
    }
    const search = newSearch();
    // What the community's text teaches (src/search/lexicon.ts) is learned before measuring; its
    // time and memory are reported (a background pass in production).
    let t0 = performance.now();
    await search.profiles.ready();
    const profileSeconds = (performance.now() - t0) / 1000;
    const stored = (
      await sql<{ n: number | string; bytes: number | string | null }>`
      select count(*) as n, sum(length(terms)) + 16 * count(*) as bytes from search_profiles`.execute(
        db,
      )
    ).rows[0]!;
    const heap0 = process.memoryUsage().heapUsed;
    t0 = performance.now();
    await search.lexicon.ready([community.id]);
    const learnSeconds = (performance.now() - t0) / 1000;
    const learned = search.lexicon.stats();
    const heapDelta = process.memoryUsage().heapUsed - heap0;
    // The rest of what a started server has cached (the SQLite typo vocabulary), timed apart.
    t0 = performance.now();
    await search.ready([community.id]);
    const warmSeconds = (performance.now() - t0) / 1000;
    // The same service without typo expansion (words matching nothing get no one-edit neighbours),
    // and one without the thread re-ranking of the head (the previous hot path).
    const noTypo = newSearch({ typoTolerance: false });
    const plain = newSearch({ ranking: { threadFields: false } });
    if (!light) await Promise.all([noTypo.ready([community.id]), plain.ready([community.id])]);
    const e2ePlain: number[] = [];
    const filtered: number[] = [];
    const selective: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const round = { bare: [] as number[], e2e: [] as number[] };
      perRound.push(round);
      for (const { q } of questions) {
        let t = performance.now();
        await search.index.bare(parseQuery(q), 10);
        bare.push(performance.now() - t);
        round.bare.push(bare[bare.length - 1]!);
        t = performance.now();
        await search.search([community], q, { limit: 10 });
        const took = performance.now() - t;
        (r === 0 ? e2eCold : e2e).push(took);
        round.e2e.push(took);
        if (!light) {
          t = performance.now();
          await noTypo.search([community], q, { limit: 10 });
          e2eNoTypo.push(performance.now() - t);
          t = performance.now();
          await plain.search([community], q, { limit: 10 });
          e2ePlain.push(performance.now() - t);
        }
        // A filter every post passes: the filtered query path, same results.
        t = performance.now();
        await search.search([community], q, { limit: 10, since: '1990-01-01' });
        filtered.push(performance.now() - t);
        if (!light) {
          // A filter that selects (solved topics only, ~1 in 5): what a filtered search usually is.
          t = performance.now();
          await search.search([community], q, { limit: 10, solved_only: true });
          selective.push(performance.now() - t);
        }
      }
    }
    const b50 = pct(bare, 50),
      b95 = pct(bare, 95);
    const all = [...e2eCold, ...e2e];
    const line = (label: string, xs: number[]) =>
      `${label} p50 ${pct(xs, 50).toFixed(1)} ms p95 ${pct(xs, 95).toFixed(1)} ms (ratio ${(pct(xs, 50) / b50).toFixed(2)} / ${(pct(xs, 95) / b95).toFixed(2)})`;
    const caches = search.index.cacheStats?.();
    console.log(
      `${store.dialect} ${String(size).padStart(8)} posts (loaded in ${loadSeconds.toFixed(0)} s): bare p50 ${b50.toFixed(1)} ms p95 ${b95.toFixed(1)} ms\n` +
        `  ${line('end-to-end, all rounds', all)}\n` +
        `  ${line('end-to-end, round 1 (first time each question is asked)', e2eCold)}\n` +
        (e2e.length ? `  ${line(`end-to-end, rounds 2-${rounds} (warm)`, e2e)}\n` : '') +
        perRound
          .map(
            (x, i) =>
              `  round ${i + 1}: bare p50 ${pct(x.bare, 50).toFixed(1)} p95 ${pct(x.bare, 95).toFixed(1)} ms, end to end p50 ${pct(x.e2e, 50).toFixed(1)} p95 ${pct(x.e2e, 95).toFixed(1)} ms (ratio within the round ${(pct(x.e2e, 50) / pct(x.bare, 50)).toFixed(2)} / ${(pct(x.e2e, 95) / pct(x.bare, 95)).toFixed(2)})\n`,
          )
          .join('') +
        (light ? '' : `  ${line('without typo expansion, all rounds', e2eNoTypo)}\n`) +
        (light
          ? ''
          : `  ${line('without the thread re-ranking (previous hot path)', e2ePlain)}\n`) +
        `  ${line('filtered (since 1990: every post passes), all rounds', filtered)}; filtered / unfiltered p50 ${(pct(filtered, 50) / pct(all, 50)).toFixed(2)} p95 ${(pct(filtered, 95) / pct(all, 95)).toFixed(2)}\n` +
        (light
          ? ''
          : `  ${line('filtered (solved_only), all rounds', selective)}; solved_only / unfiltered p50 ${(pct(selective, 50) / pct(all, 50)).toFixed(2)} p95 ${(pct(selective, 95) / pct(all, 95)).toFixed(2)}\n`) +
        `  thread profiles: ${profileSeconds.toFixed(1)} s to build, ${stored.n} stored, ${(Number(stored.bytes ?? 0) / 2 ** 20).toFixed(1)} MiB of terms\n` +
        `  learned lexicon: ${learnSeconds.toFixed(1)} s, ${learned.terms} terms, ~${(learned.bytes / 2 ** 20).toFixed(1)} MiB by estimate (heap delta ${(heapDelta / 2 ** 20).toFixed(1)} MiB)` +
        `\n  caches warmed at start: ${warmSeconds.toFixed(1)} s` +
        (caches ? `\n  search caches after the run: ${JSON.stringify(caches)}` : ''),
    );
  }
} finally {
  await store.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
