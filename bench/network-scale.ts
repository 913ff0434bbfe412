// The network at scale: N public communities of T topics each (default 10,000 × 10) on SQLite and,
// with TEST_POSTGRES_URL, on PostgreSQL, served by `hamlet serve --demo` as a user starts it. Per
// engine, in one run:
//   - search_network p50/p95 against search_community on one community of the same kind (the
//     reference, measured interleaved with it: the ratio is the figure that travels),
//   - /heartbeat's worst latency while network searches run (the event loop is never held),
//   - the server's RSS before and after, its start time, the apex page and sitemap.xml,
//   - the database statements one request of each kind costs (counted per request in a child).
//   node --import tsx bench/network-scale.ts                                   # SQLite, 10,000 × 10
//   node --import tsx bench/network-scale.ts --communities=5000 --topics=3 --rounds=5
//   HAMLET_TEST_PG_PORT=54339 scripts/with-postgres.sh node --import tsx bench/network-scale.ts
//   … --engines=postgres                                                       # one engine only
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNetwork, type NetworkCorpus } from './lib/network-corpus.ts';
import { throwawayDatabase } from './lib/pg-database.ts';
import { countQueries } from './lib/query-count.ts';
import type { CustomCase } from './lib/query-count-child.ts';
import { send } from './lib/send.ts';
import { legacyRequest, type BenchRequest } from './lib/servers.ts';
import { startServe, type ServeProcess } from './lib/serve-process.ts';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k!, v ?? 'true'] as const;
  }),
);
const COMMUNITIES = Number(args.get('communities') ?? 10_000);
const TOPICS = Number(args.get('topics') ?? 10);
const ROUNDS = Number(args.get('rounds') ?? 3);
const QUERY_COUNT = Number(args.get('queries') ?? 20);
const ENGINES = (args.get('engines') ?? 'sqlite,postgres').split(',');
const VERSION = '2025-11-25';

const tool = (name: string, a: Record<string, unknown>, key?: string): BenchRequest =>
  legacyRequest(
    'tools/call',
    { name, arguments: a },
    VERSION,
    key ? { authorization: `Bearer ${key}` } : {},
  );

/** The server process's resident memory in MB (Linux /proc). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Matching topics of the searches answered (each answer's `total`). */
const matched = new Map<string, number[]>();

async function timed(url: string, req: BenchRequest, agent: Agent, kind?: string): Promise<number> {
  const t = performance.now();
  const a = await send(url, req, agent);
  const took = performance.now() - t;
  if (a.status !== 200 || /"isError":true|"error":\{/.test(a.text))
    throw new Error(`${url}: ${a.status} ${a.text.slice(0, 300)}`);
  const total = /"total":(\d+)/.exec(a.text)?.[1];
  if (kind && total) matched.set(kind, [...(matched.get(kind) ?? []), Number(total)]);
  return took;
}

/** Polls /heartbeat every 10 ms until stopped; resolves with the worst latency seen. */
function heartbeat(origin: string): { stop(): Promise<number> } {
  let worst = 0;
  let running = true;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const loop = (async () => {
    while (running) {
      worst = Math.max(
        worst,
        await timed(`${origin}/heartbeat`, { method: 'GET', headers: {} }, agent),
      );
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      agent.destroy();
      return worst;
    },
  };
}

async function measure(engine: string, databaseUrl: string, corpus: NetworkCorpus) {
  const QUERIES = corpus.queries;
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-network-bench-'));
  const started = performance.now();
  const server: ServeProcess = await startServe(
    { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    { logFile: join(dir, 'serve.log') },
  );
  const startSeconds = (performance.now() - started) / 1e3;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const rssStart = rssOf(server.pid);
    const network = `${server.origin}/api/mcp`;
    const community = `${server.origin}/c/${corpus.reference.slug}/api/mcp`;
    const networkSearch = (q: string) => tool('search_network', { query: q });
    const communitySearch = (q: string) =>
      tool('search_community', { query: q }, corpus.reference.key);
    // Warm-up: the first search of each kind (vocabulary, statistics, worker thread).
    for (const q of QUERIES.slice(0, 3)) {
      await timed(network, networkSearch(q), agent);
      await timed(community, communitySearch(q), agent);
    }
    const beat = heartbeat(server.origin);
    const net: number[] = [];
    const one: number[] = [];
    for (let r = 0; r < ROUNDS; r++)
      for (const q of QUERIES) {
        net.push(await timed(network, networkSearch(q), agent, 'network'));
        one.push(await timed(community, communitySearch(q), agent, 'community'));
      }
    const worstBeat = await beat.stop();
    const find: number[] = [];
    for (const q of QUERIES.slice(0, 10))
      find.push(await timed(network, tool('find_community', { subject: q }), agent));
    const page = async (path: string) => {
      const xs: number[] = [];
      for (let i = 0; i < 5; i++)
        xs.push(await timed(`${server.origin}${path}`, { method: 'GET', headers: {} }, agent));
      return percentile(xs, 50);
    };
    const apex = await page('/');
    const sitemap = await page('/sitemap.xml');
    const rssEnd = rssOf(server.pid);
    const p50 = percentile(net, 50);
    const ref = percentile(one, 50);
    console.log(`\n${engine}: ${COMMUNITIES} communities × ${TOPICS} topics`);
    console.log(
      `  built in ${corpus.buildSeconds.toFixed(1)} s (profiles ${corpus.profileSeconds.toFixed(1)} s); serve started in ${startSeconds.toFixed(1)} s`,
    );
    const topics = (kind: string) => percentile(matched.get(kind) ?? [0], 50);
    console.log(
      `  search_network   p50 ${ms(p50)}  p95 ${ms(percentile(net, 95))}  (${net.length} searches, ${topics('network')} topics matched p50)`,
    );
    console.log(
      `  search_community p50 ${ms(ref)}  p95 ${ms(percentile(one, 95))}  (reference: one community, ${topics('community')} topics matched p50)`,
    );
    console.log(
      `  network/community = ${(p50 / ref).toFixed(2)}× p50 (target ≤ 2×)  ${p50 / ref <= 2 ? 'PASS' : 'MISS'}`,
    );
    console.log(`  heartbeat worst during network searches ${ms(worstBeat)} (target ≤ 100 ms)`);
    console.log(`  find_community p50 ${ms(percentile(find, 50))}`);
    console.log(`  apex page p50 ${ms(apex)}   sitemap.xml p50 ${ms(sitemap)}`);
    console.log(`  RSS ${rssStart} MB at start → ${rssEnd} MB after`);
  } finally {
    agent.destroy();
    const errors = await server.stop();
    if (errors.length) console.log(`  the server logged ${errors.length} error(s): ${errors[0]}`);
    rmSync(dir, { recursive: true, force: true });
  }
  // Statements per request, in a child of its own (its counting hooks never touch the server above).
  const q = QUERIES[0]!;
  const custom: CustomCase[] = [
    { id: 'search_network', path: '/api/mcp', request: tool('search_network', { query: q }) },
    {
      id: 'search_community',
      path: `/c/${corpus.reference.slug}/api/mcp`,
      request: tool('search_community', { query: q }, corpus.reference.key),
    },
    { id: 'find_community', path: '/api/mcp', request: tool('find_community', { subject: q }) },
  ];
  const { counts } = await countQueries(
    { DATABASE_URL: databaseUrl },
    { ids: ['mcp-2025 ping', 'mcp-2025 get_topic'], requests: 5, custom },
  );
  console.log(
    `  statements per request: ${counts.map((c) => `${c.id} ${c.mean.toFixed(1)}${c.problem ? ` (${c.problem})` : ''}`).join(', ')}`,
  );
}

console.log(
  `network scale: ${COMMUNITIES} × ${TOPICS}, ${QUERY_COUNT} queries × ${ROUNDS} rounds; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
for (const engine of ENGINES) {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'hamlet-network-db-'));
    const url = `sqlite:${join(dir, 'network.db')}`;
    try {
      await measure(engine, url, await buildNetwork(url, COMMUNITIES, TOPICS, QUERY_COUNT));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else if (engine === 'postgres') {
    const server = process.env.TEST_POSTGRES_URL;
    if (!server) {
      console.log(
        '\npostgres: skipped (TEST_POSTGRES_URL is not set: run under scripts/with-postgres.sh)',
      );
      continue;
    }
    const db = await throwawayDatabase(server);
    try {
      await measure(engine, db.url, await buildNetwork(db.url, COMMUNITIES, TOPICS, QUERY_COUNT));
    } finally {
      await db.drop();
    }
  }
}
