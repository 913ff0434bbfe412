// Search quality on the ham corpus: recall@5, MRR@10 and nDCG@10 of the labelled sets
// (questions.json: the project's own; questions-frozen.json: written from first messages only, never
// tuned on; with SEARCH_EVAL_SETS=own,frozen,dev,hard also questions-dev.json, the tuning set, and
// questions-hard.json, other words than the thread's, short, typos, phrases), each set's kinds
// apart, per configuration, on the engine of DATABASE_URL (default: a fresh SQLite file), and
// each question's rank change between the first configuration and every other one.
//   node --import tsx bench/search-quality/evaluate.ts                       # SQLite, configuration "default"
//   DATABASE_URL=postgres://… node --import tsx bench/search-quality/evaluate.ts
//   SEARCH_EVAL_CONFIGS=plain,default …    configurations to compare (names: see CONFIGS below)
//   SEARCH_EVAL_SAVE=run.json …            also write every question's rank to a file
//   SEARCH_EVAL_BASELINE=run.json …        compare with a saved run (e.g. of the previous commit)
//   SEARCH_EVAL_DB=/tmp/ham.db …           keep (and reuse) the SQLite file
//   SEARCH_EVAL_VERBOSE=1 …                prints each question's rank and the top results of misses
//   SEARCH_EVAL_FILLER=5000 …              first adds 5,000 small public communities (short posts of
//                                          everyday words and subjects of their own): a community's
//                                          own ranking must not change with them
//   SEARCH_EVAL_SCOPE=network …            searches every public community (search_network), not ham
//   SEARCH_EVAL_EMBEDDINGS_URL=http://127.0.0.1:8765/v1 SEARCH_EVAL_EMBEDDINGS_MODEL=use-lite-512 …
//                                          an OpenAI-compatible endpoint for the http-* configurations
//                                          (e.g. ./local-embedding-server.ts); every post is embedded
//                                          first (the product's EmbeddingBackfill, stored vectors)
// Ranks are of the first result whose topic title is a labelled thread (0 = not in the top 10).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadHam } from './corpus.ts';
import type { SearchOptions } from '../../src/search/service.ts';
import { HashingEmbedder } from '../../src/search/embedder.ts';
import { REPUTATION_RULE } from '../../src/domain/knowledge/reputation.ts';
import { EmbeddingBackfill, OpenAIEmbedder, PostVectors } from '../../src/search/embeddings.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.ts';
import type { SearchMode } from '../../src/search/types.ts';
import { addFillerCommunities } from '../../test/helpers/filler-communities.ts';
import { VOCABULARY, wordOf } from '../lib/network-corpus.ts';

type Question = { q: string; threads: string[]; kind?: string };
/** `alternatives`: each question also searched in its phrasings of alternatives.json, fused. */
type Config = {
  options: SearchOptions | (() => Promise<SearchOptions>);
  mode: SearchMode;
  alternatives?: number;
};
type Ranks = Record<string, Record<string, { rank: number; ndcg: number }[]>>;

/** Named configurations of SearchService: what a ranking change is measured with. */
const CONFIGS: Record<string, Config> = {
  default: { options: {}, mode: 'lexical' },
  // The calling agent's phrasings (alternatives.json, its rule stated there), fused by reciprocal rank.
  alternatives: { options: {}, mode: 'lexical', alternatives: 5 },
  'alternatives-1': { options: {}, mode: 'lexical', alternatives: 1 },
  plain: { options: { ranking: { threadFields: false } }, mode: 'lexical' },
  // Pseudo-relevance feedback (src/search/feedback.ts): after a weak first pass, or always.
  prf: { options: { feedback: {} }, mode: 'lexical' },
  'prf-always': { options: { feedback: { when: 'always' } }, mode: 'lexical' },
  'prf-always-w1': {
    options: { feedback: { when: 'always', originalWeight: 1 } },
    mode: 'lexical',
  },
  'prf-alternatives': { options: { feedback: {} }, mode: 'lexical', alternatives: 5 },
  'fields+feedback': { options: { ranking: { feedback: true } }, mode: 'lexical' },
  'fields+assoc': { options: { ranking: { associations: true } }, mode: 'lexical' },
  'fields+assoc.35': {
    options: { ranking: { associations: true, associationWeight: 0.35 } },
    mode: 'lexical',
  },
  'fields+both': { options: { ranking: { feedback: true, associations: true } }, mode: 'lexical' },
  'no-typo': { options: { typoTolerance: false }, mode: 'lexical' },
  // Votes and confirmations (src/search/signals.ts): with SEARCH_EVAL_SEED=1 they are seeded first.
  'no-signals': { options: { signals: false }, mode: 'lexical' },
  'votes-only': { options: { signals: { confirmations: false } }, mode: 'lexical' },
  'confirm-only': { options: { signals: { votes: false } }, mode: 'lexical' },
  'no-recency': { options: { signals: { recency: false } }, mode: 'lexical' },
  // The answers' authors' reputation (src/domain/knowledge/reputation.ts), seeded with the signals.
  'no-reputation': { options: { signals: { reputation: false } }, mode: 'lexical' },
  'hash-hybrid': { options: { embedder: new HashingEmbedder(256) }, mode: 'hybrid' },
  'hash-semantic': { options: { embedder: new HashingEmbedder(256) }, mode: 'semantic' },
  // The operator's embedder: the product's OpenAIEmbedder over SEARCH_EVAL_EMBEDDINGS_URL, with stored vectors.
  'http-hybrid': { options: () => httpEmbedder(), mode: 'hybrid' },
  'http-semantic': { options: () => httpEmbedder(), mode: 'semantic' },
};

/** The http-* configurations' options, built once when first selected: every post's vector is stored first. */
let http: Promise<SearchOptions> | undefined;
async function httpEmbedder(): Promise<SearchOptions> {
  http ??= (async () => {
    const url = process.env.SEARCH_EVAL_EMBEDDINGS_URL;
    const model = process.env.SEARCH_EVAL_EMBEDDINGS_MODEL;
    if (!url || !model)
      throw new Error(
        'http-* configurations need SEARCH_EVAL_EMBEDDINGS_URL and SEARCH_EVAL_EMBEDDINGS_MODEL',
      );
    const embedder = new OpenAIEmbedder({ url, model });
    const vectors = new PostVectors(db as Kysely<Database>, model);
    const started = performance.now();
    const embedded = await new EmbeddingBackfill(vectors, embedder, { batchSize: 32 }).runOnce();
    const s = (performance.now() - started) / 1000;
    const { done, total } = await vectors.counts();
    if (done !== total)
      throw new Error(`backfill left ${total - done} of ${total} posts without a vector`);
    console.log(
      `backfill ${embedder.name}: ${embedded} posts embedded in ${s.toFixed(1)} s (${(embedded / s || 0).toFixed(1)} posts/s); ${done}/${total} posts have a vector`,
    );
    return { embedder, vectors };
  })();
  return http;
}

// The importer prefixes titles shorter than the minimum with "Mailing list: " (src/import/mail/importer.ts);
// labels name the thread's subject as written.
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^mailing list: /, '');
const load = (file: string) =>
  (JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { questions: Question[] })
    .questions;
// own and frozen are reported; dev (questions-dev.json) is the set ranking parameters are tuned on.
const SETS: Record<string, Question[]> = Object.fromEntries(
  (process.env.SEARCH_EVAL_SETS ?? 'own,frozen')
    .split(',')
    .map((n) => [n, load(n === 'own' ? './questions.json' : `./questions-${n}.json`)]),
);

/** Each question's other phrasings, as a calling agent wrote them (the rule is in the file). */
const ALTERNATIVES = (
  JSON.parse(readFileSync(new URL('./alternatives.json', import.meta.url), 'utf8')) as {
    alternatives: Record<string, string[]>;
  }
).alternatives;

const names = (process.env.SEARCH_EVAL_CONFIGS ?? 'default')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
for (const n of names)
  if (!CONFIGS[n])
    throw new Error(`unknown configuration "${n}"; known: ${Object.keys(CONFIGS).join(', ')}`);
const keep = process.env.SEARCH_EVAL_DB;
const dir =
  process.env.DATABASE_URL || keep ? undefined : mkdtempSync(join(tmpdir(), 'hamlet-quality-'));
const url = process.env.DATABASE_URL ?? `sqlite:${keep ?? join(dir!, 'quality.db')}`;
const verbose = process.env.SEARCH_EVAL_VERBOSE === '1';
const { store, community, searchService, db } = await loadHam(url);
const filler = Number(process.env.SEARCH_EVAL_FILLER ?? 0);
if (filler > 0 && !(await store.communities.getBySlug('filler-0'))) {
  const started = performance.now();
  // Short posts of other communities: everyday English words and words of their own subjects
  // (the scale bench's Zipfian vocabulary), seeded. They change every statistic of the table (its
  // size, lengths and common words) without being about the corpus's threads.
  const everyday =
    'time people year day thing world life hand part place week case point number group problem fact work home water room money story month lot right study book eye job word business issue side kind head house service friend power hour game line end member law car city community name team minute idea kid body information back parent face level office door health person art war history party result change morning reason research girl guy moment air teacher force education'.split(
      ' ',
    );
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const word = () =>
    next() < 0.3
      ? everyday[Math.floor(next() * everyday.length)]!
      : wordOf(Math.floor(VOCABULARY * next() ** 3));
  const snippet = (n: number) => Array.from({ length: n }, word).join(' ');
  await addFillerCommunities(db as Kysely<Database>, {
    count: filler,
    prefix: 'filler',
    topics: () =>
      [1, 2, 3].map(() => ({
        title: snippet(4 + Math.floor(next() * 5)),
        body: snippet(8 + Math.floor(next() * 22)),
      })),
  });
  console.log(
    `added ${filler} communities of 3 short topics in ${((performance.now() - started) / 1e3).toFixed(1)} s`,
  );
}
const within = process.env.SEARCH_EVAL_SCOPE === 'network' ? ('public' as const) : [community];

/** nDCG@10 with binary relevance; `relevant` topics exist in the corpus with a labelled title. */
function ndcg(titles: string[], gold: Set<string>, relevant: number): number {
  let dcg = 0;
  titles.slice(0, 10).forEach((t, i) => (dcg += gold.has(norm(t)) ? 1 / Math.log2(i + 2) : 0));
  let ideal = 0;
  for (let i = 0; i < Math.min(10, Math.max(1, relevant)); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

function summary(rs: { rank: number; ndcg: number }[]): string {
  const n = rs.length || 1;
  const r5 = rs.filter((r) => r.rank >= 1 && r.rank <= 5).length / n;
  const mrr = rs.reduce((s, r) => s + (r.rank ? 1 / r.rank : 0), 0) / n;
  const nd = rs.reduce((s, r) => s + r.ndcg, 0) / n;
  return `recall@5 ${r5.toFixed(3)}  MRR@10 ${mrr.toFixed(3)}  nDCG@10 ${nd.toFixed(3)}`;
}

function changes(
  label: string,
  set: string,
  before: { rank: number }[],
  after: { rank: number }[],
): void {
  const qs = SETS[set]!;
  const moved = qs.flatMap((q, i) => {
    const a = before[i]!.rank || 99;
    const b = after[i]!.rank || 99;
    return a === b
      ? []
      : [
          `    ${a === 99 ? '-' : a} → ${b === 99 ? '-' : b}  ${b < a ? 'better' : 'WORSE '}  ${q.q}`,
        ];
  });
  console.log(`  ${set}: ${label}: ${moved.length} questions changed rank`);
  for (const m of moved) console.log(m);
}

/**
 * Votes and confirmations by a rule that never looks at the labels (the corpus has no accepted
 * answers): the k-th topic with a reply (in the order they were created) has its first reply
 * reported failed by 4 agents when k % 5 = 0, else upvoted by 3 people and confirmed by 2 agents.
 */
async function seedSignals(): Promise<string> {
  const people = await Promise.all(
    [1, 2, 3].map((i) => store.people.create({ displayName: `Seed voter ${i}` })),
  );
  let k = 0;
  let failed = 0;
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await store.community(community.id).topics.list({
      sort: 'created',
      limit: 1000,
      after: cursor ? JSON.parse(cursor) : undefined,
    });
    for (const t of page.items) {
      const reply = (await store.community(community.id).posts.listByTopic(t.id, { limit: 2 }))
        .items[1];
      if (!reply) continue;
      const post = { id: reply.id, topicId: t.id };
      await store.transaction(async (tx) => {
        const v = tx.community(community.id).votes;
        if (++k % 5 === 0) {
          failed++;
          for (const i of [1, 2, 3, 4])
            await v.setOutcome(
              post,
              { kind: 'agent', id: `seed-f${i}`, name: 'seed' },
              { worked: false, note: null },
            );
        } else {
          for (const p of people) await v.setVote(post, p.id, 1);
          for (const i of [1, 2])
            await v.setOutcome(
              post,
              { kind: 'agent', id: `seed-w${i}`, name: 'seed' },
              { worked: true, note: null },
            );
        }
        await tx.community(community.id).reputation.recount(reply.author, REPUTATION_RULE);
      });
    }
    cursor = page.next ? JSON.stringify(page.next) : undefined;
  }
  return `seeded: ${k} topics with a reply, ${k - failed} confirmed and upvoted, ${failed} reported failed`;
}

try {
  // Topics per labelled title (every labelled thread must exist in the imported corpus).
  const titleCount = new Map<string, number>();
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await store.community(community.id).topics.list({
      sort: 'created',
      limit: 1000,
      after: cursor ? JSON.parse(cursor) : undefined,
    });
    for (const t of page.items)
      titleCount.set(norm(t.title), (titleCount.get(norm(t.title)) ?? 0) + 1);
    cursor = page.next ? JSON.stringify(page.next) : undefined;
  }
  const missing = Object.values(SETS)
    .flat()
    .flatMap((x) => x.threads)
    .filter((t) => !titleCount.has(norm(t)));
  if (missing.length) console.log(`labelled threads not in the corpus: ${missing.join(' | ')}`);

  if (process.env.SEARCH_EVAL_SEED === '1') console.log(await seedSignals());

  const ranks: Ranks = {};
  for (const name of names) {
    const { options, mode, alternatives } = CONFIGS[name]!;
    const service = searchService(typeof options === 'function' ? await options() : options);
    // What the community's text teaches (./src/search/lexicon.ts) is learned before measuring.
    await service.lexicon.ready([community.id]);
    ranks[name] = {};
    for (const [set, questions] of Object.entries(SETS)) {
      const started = performance.now();
      const out: { rank: number; ndcg: number }[] = [];
      for (const { q, threads } of questions) {
        const gold = new Set(threads.map(norm));
        const relevant = [...gold].reduce((s, t) => s + (titleCount.get(t) ?? 0), 0);
        const phrasings = alternatives ? (ALTERNATIVES[q] ?? []).slice(0, alternatives) : [];
        const r = await service.search(within, q, { limit: 10 }, mode, { alternatives: phrasings });
        const titles = r.results.map((x) => x.title);
        const rank = titles.findIndex((t) => gold.has(norm(t))) + 1;
        out.push({ rank, ndcg: ndcg(titles, gold, relevant) });
        if (verbose) {
          console.log(`${name} ${set} rank ${rank || '-'}  ${q}`);
          if (rank !== 1)
            for (const x of r.results.slice(0, 3)) console.log(`      ${x.score} ${x.title}`);
        }
      }
      ranks[name]![set] = out;
      const ms = (performance.now() - started) / questions.length;
      console.log(
        `${store.dialect.padEnd(9)} ${name.padEnd(14)} ${set.padEnd(7)} ${summary(out)}  (${questions.length} questions, ${ms.toFixed(1)} ms/query)`,
      );
      // Each kind of question of the set (questions-*.json say what each kind is).
      {
        for (const kind of [...new Set(questions.flatMap((x) => (x.kind ? [x.kind] : [])))]) {
          const sub = out.filter((_, i) => questions[i]!.kind === kind);
          console.log(`${''.padEnd(25)} ${kind.padEnd(7)} ${summary(sub)}  (${sub.length})`);
        }
      }
    }
  }
  console.log('\nrank changes (first configuration → the others):');
  for (const name of names.slice(1))
    for (const set of Object.keys(SETS))
      changes(`${names[0]} → ${name}`, set, ranks[names[0]!]![set]!, ranks[name]![set]!);
  if (process.env.SEARCH_EVAL_BASELINE) {
    const base = JSON.parse(readFileSync(process.env.SEARCH_EVAL_BASELINE, 'utf8')) as Ranks;
    for (const name of names) {
      const b = base[name];
      if (!b) continue;
      for (const set of Object.keys(SETS))
        if (b[set]) changes(`saved ${name} → now ${name}`, set, b[set]!, ranks[name]![set]!);
    }
  }
  if (process.env.SEARCH_EVAL_SAVE)
    writeFileSync(process.env.SEARCH_EVAL_SAVE, JSON.stringify(ranks));
} finally {
  await store.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
