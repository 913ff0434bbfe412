// REST vs MCP throughput: the same operation over both faces of one Hamlet (a child process on a
// throwaway SQLite file, so the load generator here has the other core), measured one after the
// other in the same run, for a read (get_topic: GET /api/v1/topics/{id} vs tools/call get_topic)
// and a write (reply_to_topic: POST /api/v1/topics/{id}/posts vs tools/call reply_to_topic), each
// measured REST, MCP, MCP, REST and averaged. Both faces run the same pipeline; the ratio shows what
// each face's own work costs.
//
//   node --import tsx bench/rest-throughput.ts [--duration=3] [--warmup=2] [--connections=16]
//
// Exit code 1 when any request fails (the numbers would mean nothing).
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { loadConfig } from '../src/config/config.ts';
import { systemActor } from '../src/domain/actor.ts';
import { openHamlet } from '../src/main.ts';
import { positiveNumber, readOptions } from './lib/options.ts';

type Result = {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
};
type Request = {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
};
const autocannon = createRequire(import.meta.url)('autocannon') as (
  o: Record<string, unknown>,
) => Promise<Result>;

const opts = readOptions({
  duration: { default: '3', help: 'measured seconds per run (four runs per operation)' },
  warmup: { default: '2', help: 'warm-up seconds per case' },
  connections: { default: '16', help: 'concurrent keep-alive connections' },
});
const duration = positiveNumber('duration', opts.duration);
const warmup = Number(opts.warmup);
const connections = Math.round(positiveNumber('connections', opts.connections));

const dir = mkdtempSync(join(tmpdir(), 'hamlet-rest-bench-'));
const port = await new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as { port: number }).port;
    s.close(() => resolve(p));
  });
});
const env = {
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`,
  LOG_LEVEL: 'error',
  HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000',
  HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
};

// The data: the demo communities, an agent that may reply, and one topic to read and reply to.
const config = loadConfig(env);
const opened = await openHamlet(config);
await opened.store.migrate();
const { ensureDemoCommunity } = await import('../src/demo/demo.ts');
await ensureDemoCommunity(opened.store, opened.services, config);
const acme = (await opened.store.communities.getBySlug('acme'))!;
const { key } = await opened.services.agents.create(systemActor('bench'), acme, {
  name: 'bench-bot',
  scopes: ['post:create'],
});
const topic = (await opened.services.content.listTopics(systemActor('bench'), acme, { limit: 1 }))
  .topics[0]!.id;
await opened.close();

const server = spawn(process.execPath, ['bin/hamlet.js', 'serve'], {
  env: { ...process.env, ...env },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = { host: `acme.localhost:${port}`, authorization: `Bearer ${key}` };
for (let i = 0; ; i++) {
  if ((await fetch(`http://127.0.0.1:${port}/heartbeat`).catch(() => null))?.ok) break;
  if (i > 200) throw new Error('Hamlet did not start');
  await new Promise((r) => setTimeout(r, 100));
}

const mcp = (name: string, args: Record<string, unknown>): Request => ({
  method: 'POST',
  path: '/api/mcp',
  headers: {
    ...base,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  }),
});
const reply = 'A reply written by the throughput bench, long enough to be a post.';
const CASES: { op: string; face: 'REST' | 'MCP'; req: Request }[] = [
  {
    op: 'read  get_topic',
    face: 'REST',
    req: { method: 'GET', path: `/api/v1/topics/${topic}?limit=10`, headers: base },
  },
  { op: 'read  get_topic', face: 'MCP', req: mcp('get_topic', { topic, limit: 10 }) },
  {
    op: 'write reply_to_topic',
    face: 'REST',
    req: {
      method: 'POST',
      path: `/api/v1/topics/${topic}/posts`,
      headers: { ...base, 'content-type': 'application/json' },
      body: JSON.stringify({ body: reply }),
    },
  },
  { op: 'write reply_to_topic', face: 'MCP', req: mcp('reply_to_topic', { topic, body: reply }) },
];

/** One request first: it must succeed (an MCP tool failure is a 200 with isError, so look inside). */
async function check(req: Request): Promise<void> {
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      { host: '127.0.0.1', port, path: req.path, method: req.method, headers: req.headers },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => {
          const ok = (res.statusCode ?? 0) < 300 && !text.includes('"isError":true');
          if (ok) resolve();
          else
            reject(
              new Error(
                `${req.method} ${req.path} answered ${res.statusCode}: ${text.slice(0, 300)}`,
              ),
            );
        });
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}

const run = (req: Request, seconds: number) =>
  autocannon({
    url: `http://127.0.0.1:${port}${req.path}`,
    method: req.method,
    headers: req.headers,
    body: req.body,
    connections,
    duration: seconds,
  });

console.log(
  `REST vs MCP throughput: node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  `${connections} connections, ${warmup} s warm-up per case, then ${duration} s × 4 per operation (REST, MCP, MCP, REST), Hamlet in a child process on SQLite\n`,
);
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const rows: { op: string; face: string; rps: number; p50: number; p99: number; failed: number }[] =
  [];
try {
  // Every case is warmed up first (a fresh server also learns its search statistics in the
  // background), then each operation is measured in the order REST, MCP, MCP, REST so that a drift
  // of the machine's load during the run weighs on both faces alike; the two runs are averaged.
  for (const c of CASES) {
    await check(c.req);
    if (warmup > 0) await run(c.req, warmup);
  }
  for (const op of [...new Set(CASES.map((c) => c.op))]) {
    const [rest, viaMcp] = (['REST', 'MCP'] as const).map((face) =>
      CASES.find((c) => c.op === op && c.face === face)!,
    );
    const results = new Map<string, Result[]>();
    for (const c of [rest!, viaMcp!, viaMcp!, rest!]) {
      process.stderr.write(`${c.op} over ${c.face}…\n`);
      const r = await run(c.req, duration);
      process.stderr.write(`  ${fmt(r.requests.average)} req/s\n`);
      results.set(c.face, [...(results.get(c.face) ?? []), r]);
    }
    for (const [face, rs] of results) {
      const mean = (f: (r: Result) => number) => rs.reduce((a, r) => a + f(r), 0) / rs.length;
      rows.push({
        op,
        face,
        rps: mean((r) => r.requests.average),
        p50: mean((r) => r.latency.p50),
        p99: mean((r) => r.latency.p99),
        failed: rs.reduce((a, r) => a + r.errors + r.timeouts + r.non2xx, 0),
      });
    }
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  [
    'operation'.padEnd(22),
    'face'.padEnd(5),
    'req/s'.padStart(8),
    'p50 ms'.padStart(7),
    'p99 ms'.padStart(7),
    'failed'.padStart(7),
  ].join('  '),
);
for (const r of rows)
  console.log(
    [
      r.op.padEnd(22),
      r.face.padEnd(5),
      fmt(r.rps).padStart(8),
      fmt(r.p50).padStart(7),
      fmt(r.p99).padStart(7),
      String(r.failed).padStart(7),
    ].join('  '),
  );
console.log('');
for (const op of [...new Set(rows.map((r) => r.op))]) {
  const rest = rows.find((r) => r.op === op && r.face === 'REST')!;
  const viaMcp = rows.find((r) => r.op === op && r.face === 'MCP')!;
  console.log(`${op}: REST/MCP = ${(rest.rps / viaMcp.rps).toFixed(2)}×`);
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
if (rows.some((r) => r.failed > 0)) {
  console.error('\nINVALID: some requests failed; the numbers above do not count.');
  process.exitCode = 1;
}
