// Memory of one instance as the number of communities grows: N public communities (default 10,000,
// each with its starter category, made through CommunityService), then `hamlet serve` (its own
// process, as users run it) touched on every one of them through the real request path: the web
// home page in the path form (/c/<slug>/), MCP tools/list in the path form (/c/<slug>/api/mcp) and
// MCP initialize on the community's host (<slug>.localhost). The server's resident set (VmRSS of
// /proc/<pid>/status) is read after start, every 1,000 communities and at the end. Target: at most
// 64 MB above the RSS at start. The server is started with --expose-gc and lib/gc-on-signal.cjs, so
// the bench also reads its RSS and heap after a full collection at start and at the end: live
// memory, apart from garbage V8 has not collected yet.
//
//   node --import tsx bench/network-memory.ts                       # SQLite, 10,000 communities
//   node --import tsx bench/network-memory.ts --communities=2000 --concurrency=8
//   node --import tsx bench/network-memory.ts --checkout=/tmp/hamlet-before   # an older checkout
//   HAMLET_TEST_PG_PORT=54351 scripts/with-postgres.sh node --import tsx bench/network-memory.ts --engines=postgres
//
// Exit code 1 when a request fails or answers wrongly.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { positiveNumber, readOptions } from './lib/options.ts';
import { throwawayDatabase } from './lib/pg-database.ts';
import { startServe } from './lib/serve-process.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TARGET_MB = 64;
const SAMPLE_EVERY = 1_000;

const opts = readOptions({
  communities: { default: '10000', help: 'public communities to create and touch' },
  concurrency: { default: '4', help: 'communities touched at once' },
  engines: { default: 'sqlite', help: 'sqlite,postgres (postgres needs TEST_POSTGRES_URL)' },
  checkout: {
    default: ROOT,
    help: 'the checkout whose serve is measured (and seeds its database)',
  },
  touch: { default: 'home,tools,initialize', help: 'which requests touch each community' },
  idle: { default: '20', help: 'seconds the server is left idle before the last RSS reading' },
});
const idleSeconds = Number(opts.idle);
const touching = new Set(opts.touch.split(',').filter(Boolean));
const count = Math.round(positiveNumber('communities', opts.communities));
const concurrency = Math.round(positiveNumber('concurrency', opts.concurrency));
const checkout = resolve(opts.checkout);
const PREFIX = 'scale';

/** What a server preloaded with lib/gc-on-signal.cjs holds once its garbage is collected (MB). */
async function collected(pid: number, file: string): Promise<Collected> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      const m = JSON.parse(readFileSync(file, 'utf8')) as NodeJS.MemoryUsage;
      return {
        rss: m.rss / 2 ** 20,
        heap: m.heapUsed / 2 ** 20,
        heapTotal: m.heapTotal / 2 ** 20,
        external: m.external / 2 ** 20,
      };
    } catch {
      // Not written yet (or half written): wait on.
    }
  }
  throw new Error(`process ${pid} did not report its memory after a collection`);
}

/** VmRSS of a process, in MB. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) / 1024;
}

type Answer = { status: number; text: string };

/** One request; once more on a fresh connection when a kept-alive one was closed under it. */
async function send(
  agent: Agent,
  origin: string,
  path: string,
  o: { host?: string; body?: string } = {},
): Promise<Answer> {
  try {
    return await sendOnce(agent, origin, path, o);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') throw err;
    return sendOnce(agent, origin, path, o);
  }
}

async function sendOnce(
  agent: Agent,
  origin: string,
  path: string,
  o: { host?: string; body?: string },
): Promise<Answer> {
  const url = new URL(path, origin);
  return new Promise((done, fail) => {
    const req = request(url, {
      method: o.body ? 'POST' : 'GET',
      agent,
      headers: {
        ...(o.host ? { host: o.host } : {}),
        ...(o.body
          ? {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'content-length': Buffer.byteLength(o.body),
            }
          : {}),
      },
    });
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.end(o.body);
  });
}

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'network-memory', version: '1' },
  },
});

/** The three requests that touch one community; throws when one answers wrongly. */
async function touch(agent: Agent, origin: string, port: string, n: number): Promise<void> {
  const slug = `${PREFIX}-${n}`;
  if (touching.has('home')) {
    const home = await send(agent, origin, `/c/${slug}/`);
    if (home.status !== 200 || !home.text.includes(`Scale community ${n}`))
      throw new Error(`${slug}: home page answered ${home.status}`);
  }
  if (touching.has('tools')) {
    const tools = await send(agent, origin, `/c/${slug}/api/mcp`, { body: TOOLS_LIST });
    if (tools.status !== 200 || !tools.text.includes('"search_community"'))
      throw new Error(`${slug}: tools/list answered ${tools.status} ${tools.text.slice(0, 200)}`);
  }
  if (touching.has('initialize')) {
    const init = await send(agent, origin, '/api/mcp', {
      host: `${slug}.localhost:${port}`,
      body: INITIALIZE,
    });
    if (init.status !== 200 || !init.text.includes('"protocolVersion"'))
      throw new Error(`${slug}: initialize answered ${init.status} ${init.text.slice(0, 200)}`);
  }
}

type Collected = { rss: number; heap: number; heapTotal: number; external: number };
type Run = {
  engine: string;
  seedMs: number;
  start: number;
  samples: number[];
  ms: number;
  /** RSS after the server was left idle a while at the end. */
  idle: number;
  /** After a full collection, at start and at the end. */
  live: [Collected, Collected];
};

async function measure(engine: string, databaseUrl: string, dir: string): Promise<Run> {
  const memoryFile = join(dir, 'memory.json');
  const seeded = JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'bench/lib/seed-communities.ts'),
        checkout,
        databaseUrl,
        String(count),
        PREFIX,
      ],
      { encoding: 'utf8', cwd: checkout, stdio: ['ignore', 'pipe', 'inherit'] },
    )
      .trim()
      .split('\n')
      .pop()!,
  ) as { ms: number };
  const serve = await startServe(
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000',
      HAMLET_MCP_SESSIONS_PER_ADDRESS: '100000',
      BENCH_MEMORY_FILE: memoryFile,
    },
    {
      logFile: join(dir, `${engine}-serve.log`),
      root: checkout,
      nodeArgs: ['--expose-gc', '--require', join(ROOT, 'bench/lib/gc-on-signal.cjs')],
    },
  );
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const port = new URL(serve.origin).port;
  try {
    await new Promise((r) => setTimeout(r, 1_000));
    const start = rssMb(serve.pid);
    const liveStart = await collected(serve.pid, memoryFile);
    const samples: number[] = [];
    const began = performance.now();
    let next = 0;
    let touched = 0;
    const worker = async () => {
      while (next < count) {
        await touch(agent, serve.origin, port, next++);
        if (++touched % SAMPLE_EVERY === 0) samples.push(rssMb(serve.pid));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const ms = performance.now() - began;
    samples.push(rssMb(serve.pid));
    // Idle, V8 gives back heap it no longer needs (its memory reducer): what a quiet server holds.
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idle = rssMb(serve.pid);
    const liveEnd = await collected(serve.pid, memoryFile);
    return { engine, seedMs: seeded.ms, start, samples, ms, idle, live: [liveStart, liveEnd] };
  } finally {
    agent.destroy();
    const errors = await serve.stop();
    if (errors.length) console.log(`${engine}: serve logged errors:\n${errors.join('\n')}`);
  }
}

console.log(
  `Network memory: node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\ncheckout ${checkout}; ${count.toLocaleString('en-US')} public communities, ` +
    `each touched by ${[...touching].join(', ')}, ${concurrency} at a time\n`,
);
const mb = (n: number) => `${n.toFixed(0)} MB`;
let failed = false;
for (const engine of opts.engines.split(',').filter(Boolean)) {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-network-memory-'));
  let pg: Awaited<ReturnType<typeof throwawayDatabase>> | undefined;
  try {
    let databaseUrl = `sqlite:${join(dir, 'hamlet.db')}`;
    if (engine === 'postgres') {
      if (!process.env.TEST_POSTGRES_URL) throw new Error('postgres needs TEST_POSTGRES_URL');
      pg = await throwawayDatabase(process.env.TEST_POSTGRES_URL);
      databaseUrl = pg.url;
    }
    const run = await measure(engine, databaseUrl, dir);
    const end = run.samples[run.samples.length - 1]!;
    const peak = Math.max(...run.samples);
    console.log(
      `${engine}: seeded in ${(run.seedMs / 1000).toFixed(1)} s; touched in ${(run.ms / 1000).toFixed(1)} s ` +
        `(${((run.ms / count) * 1000).toFixed(0)} µs a community)\n` +
        `  RSS at start ${mb(run.start)}, every ${SAMPLE_EVERY.toLocaleString('en-US')}: ` +
        `${run.samples.map((s) => s.toFixed(0)).join(' ')} MB\n` +
        `  after − start = ${mb(end - run.start)} (peak − start ${mb(peak - run.start)}; target ≤ ${TARGET_MB} MB) ` +
        `${end - run.start <= TARGET_MB ? 'PASS' : 'MISS'}\n` +
        `  after ${idleSeconds} s idle: RSS ${mb(run.idle)} (${mb(run.idle - run.start)} above start)\n` +
        `  after a full collection: RSS ${mb(run.live[0].rss)} → ${mb(run.live[1].rss)}, ` +
        `heap used ${mb(run.live[0].heap)} → ${mb(run.live[1].heap)} ` +
        `(of ${mb(run.live[0].heapTotal)} → ${mb(run.live[1].heapTotal)} reserved; ` +
        `external ${mb(run.live[0].external)} → ${mb(run.live[1].external)}) ` +
        `(live growth ${mb(run.live[1].heap - run.live[0].heap)})`,
    );
  } catch (err) {
    failed = true;
    console.error(`${engine}: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
process.exitCode = failed ? 1 : 0;
