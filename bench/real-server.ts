// The real server, measured as users run it: `node bin/hamlet.js serve --demo` (its own process,
// configured through the environment only, per-key and per-address rate limits raised out of the
// way), on SQLite and on PostgreSQL, against the hand-written node:http JSON-RPC limit of
// lib/servers.ts measured in the same run (before and after the cases; the mean is the reference).
// For each case: req/s and server CPU per request (read from /proc/<pid>/stat), each as a ratio to
// the limit given the same kind of request, p50/p99 latency, and the database statements one
// request sends (counted in a separate process, lib/query-count-child.ts). Cases (lib/real-cases.ts):
// MCP tools/list, tools/call get_topic and search_community in both protocol eras (2025-11-25
// stateless POST with the demo agent key; 2026-07-28 with `_meta` and its headers) beside each era's
// cheapest request (ping; server/discover, 2026-07-28 having no ping), REST
// GET /api/v1/topics/{topic} and the topic's web page, all at /c/acme/… on Host 127.0.0.1.
//
//   node --import tsx bench/real-server.ts --quick                 # 1 s per case, SQLite (and PostgreSQL if TEST_POSTGRES_URL)
//   HAMLET_TEST_PG_PORT=54339 scripts/with-postgres.sh node --import tsx bench/real-server.ts
//   node --import tsx bench/real-server.ts --engines=sqlite --cases='mcp-2025 ping' --profile=prof
//
// Exit code 1 when any request fails or answers wrongly (the numbers would mean nothing).
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerChild } from './lib/child.ts';
import { mainThreadProfile, summarizeProfile } from './lib/cpu-profile.ts';
import { failures, load, type AutocannonResult } from './lib/load.ts';
import { positiveNumber, readOptions } from './lib/options.ts';
import { throwawayDatabase } from './lib/pg-database.ts';
import { processCpuMicros } from './lib/proc-cpu.ts';
import { countQueries } from './lib/query-count.ts';
import type { CaseCount } from './lib/query-count-child.ts';
import { limitRequests, realCases, type LimitShape } from './lib/real-cases.ts';
import { send } from './lib/send.ts';
import type { BenchRequest } from './lib/servers.ts';
import { startServe } from './lib/serve-process.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ALL_CASES = realCases('hmlt_placeholder').map((c) => c.id);
const opts = readOptions({
  duration: { default: '5', help: 'measured seconds per case' },
  warmup: { default: '1', help: 'warm-up seconds per case (not measured; 0 to skip)' },
  connections: { default: '10', help: 'concurrent keep-alive connections' },
  quick: { default: 'false', help: 'smoke run: 1 s per case, no warm-up, 5 counted requests' },
  engines: {
    default: '',
    help: 'sqlite,postgres (default: sqlite, and postgres when TEST_POSTGRES_URL is set)',
  },
  postgres: { default: '', help: 'PostgreSQL server URL (default TEST_POSTGRES_URL)' },
  cases: { default: ALL_CASES.join(','), help: 'which cases to run, by name' },
  count: {
    default: '20',
    help: 'requests per case whose database statements are counted (0: skip)',
  },
  sql: { default: 'false', help: 'print the statements one counted request of each case sent' },
  profile: {
    default: '',
    help: 'directory: run serve under --cpu-prof, print top frames per case',
  },
});
const quick = opts.quick === 'true' || opts.quick === '';
const duration = quick ? 1 : positiveNumber('duration', opts.duration);
const warmup = quick ? 0 : Number(opts.warmup);
if (!Number.isFinite(warmup) || warmup < 0) throw new Error('warmup must be ≥ 0');
const connections = Math.round(positiveNumber('connections', opts.connections));
const countRequests = quick ? 5 : Math.round(Number(opts.count));
const postgresUrl = opts.postgres || process.env.TEST_POSTGRES_URL || '';
const engines = (opts.engines || (postgresUrl ? 'sqlite,postgres' : 'sqlite')).split(',');
for (const e of engines)
  if (e !== 'sqlite' && e !== 'postgres')
    throw new Error(`Unknown engine "${e}"; expected sqlite and/or postgres.`);
if (engines.includes('postgres') && !postgresUrl)
  throw new Error(
    'PostgreSQL needs a server: --postgres=postgres://… or run under scripts/with-postgres.sh.',
  );
const selected = opts.cases.split(',').map((s) => s.trim());
for (const s of selected)
  if (!ALL_CASES.includes(s))
    throw new Error(`Unknown case "${s}"; expected some of: ${ALL_CASES.join(', ')}.`);
const profileDir = opts.profile ? resolve(opts.profile) : undefined;
/** The rate limits a bench must not hit (per key and per address, per minute). */
const RAISED_LIMITS = {
  HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000000',
  HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '1000000000',
};

type Measured = {
  result: AutocannonResult;
  /** Whether every answer was compared with the verified one byte for byte (stable answers only). */
  bodyChecked: boolean;
  cpuShare: number;
  cpuPerRequest: number;
  from: number;
  to: number;
};

const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

/** One case under load: warm-up, then the measured run with the server's CPU time around it. */
async function measure(
  url: string,
  request: BenchRequest,
  pid: number,
  expectBody: string | undefined,
): Promise<Measured> {
  const settings = { connections, durationSeconds: duration };
  if (warmup > 0) {
    const w = await load(url, request, { connections, durationSeconds: warmup }, expectBody);
    if (failures(w) > 0) throw new Error(`${url}: ${failures(w)} failed requests during warm-up`);
  }
  const cpu0 = processCpuMicros(pid);
  const from = nowMicros();
  const result = await load(url, request, settings, expectBody);
  const to = nowMicros();
  const cpu = processCpuMicros(pid) - cpu0;
  const responses = result['2xx'] + result.non2xx;
  return {
    result,
    bodyChecked: expectBody !== undefined,
    cpuShare: cpu / (to - from),
    cpuPerRequest: cpu / Math.max(1, responses),
    from,
    to,
  };
}

/** The answer must be right twice; when both are byte for byte equal, every answer of the run must be too. */
async function verified(
  url: string,
  request: BenchRequest,
  check: (a: Awaited<ReturnType<typeof send>>) => string | undefined,
): Promise<string | undefined> {
  const [a, b] = [await send(url, request), await send(url, request)];
  const problem = check(a) ?? check(b);
  if (problem) throw new Error(`${url} answered wrongly (${problem}): ${a.text.slice(0, 300)}`);
  return a.text === b.text ? a.text : undefined;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (x: number) => (x < 1 ? '<1' : fmt(x));
const times = (x: number) => `${x.toFixed(2)}×`;
const load3 = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

const queriesText = (c: CaseCount | undefined) =>
  !c ? '–' : c.min === c.max ? String(c.min) : `${fmt(c.mean, 1)} (${c.min}–${c.max})`;

let broken = false;

async function pass(engine: 'sqlite' | 'postgres'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-real-bench-'));
  const pg = engine === 'postgres' ? await throwawayDatabase(postgresUrl) : undefined;
  const env = { DATABASE_URL: pg?.url ?? `sqlite:${join(dir, 'hamlet.db')}`, ...RAISED_LIMITS };
  const startedAt = Date.now();
  const rows = new Map<string, Measured>();
  const limits = new Map<LimitShape, Measured[]>();
  const problems: string[] = [];
  let cases = realCases('');
  try {
    process.stderr.write(`${engine}: starting hamlet serve --demo…\n`);
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const serve = await startServe(env, {
      logFile: join(dir, 'serve.log'),
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    const limit = await startServerChild('limit').catch(async (err: unknown) => {
      await serve.stop();
      throw err;
    });
    try {
      cases = realCases(serve.key);
      const limitOf = limitRequests(cases);
      const shapes = [...new Set(cases.filter((c) => selected.includes(c.id)).map((c) => c.limit))];
      const limitExpected = new Map<LimitShape, string | undefined>();
      for (const shape of shapes)
        limitExpected.set(
          shape,
          await verified(limit.url, limitOf[shape], (a) =>
            a.status === 200 ? undefined : `HTTP ${a.status}`,
          ),
        );
      const measureLimits = async () => {
        for (const shape of shapes) {
          process.stderr.write(`  limit (${shape})…\n`);
          const m = await measure(limit.url, limitOf[shape], limit.pid, limitExpected.get(shape));
          limits.set(shape, [...(limits.get(shape) ?? []), m]);
        }
      };
      await measureLimits();
      for (const c of cases.filter((x) => selected.includes(x.id))) {
        process.stderr.write(`  ${c.id}…\n`);
        const url = serve.origin + c.path;
        rows.set(
          c.id,
          await measure(url, c.request, serve.pid, await verified(url, c.request, c.check)),
        );
      }
      await measureLimits();
    } finally {
      await limit.stop();
      const errors = await serve.stop();
      if (errors.length)
        problems.push(
          `serve logged ${errors.length} error(s), the first: ${errors[0]!.slice(0, 500)}`,
        );
    }
    const counts =
      countRequests > 0
        ? await countQueries(env, { ids: selected, requests: countRequests })
        : undefined;
    for (const c of counts?.counts ?? []) if (c.problem) problems.push(`${c.id}: ${c.problem}`);
    report(engine, cases, rows, limits, counts?.counts ?? []);
    if (opts.sql === 'true')
      for (const c of counts?.counts ?? [])
        console.log(
          `\n${c.id}: ${c.last.length} statement(s)\n${c.last.map((q) => `  ${q}`).join('\n')}`,
        );
    for (const p of problems) console.log(`PROBLEM: ${p}`);
    if (problems.length) broken = true;
    if (profileDir) profileReport(startedAt, rows);
  } finally {
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(
  engine: string,
  cases: ReturnType<typeof realCases>,
  rows: Map<string, Measured>,
  limits: Map<LimitShape, Measured[]>,
  counts: CaseCount[],
): void {
  const mean = (ms: Measured[] | undefined, f: (m: Measured) => number) =>
    ms && ms.length ? ms.reduce((a, m) => a + f(m), 0) / ms.length : NaN;
  const limitRps = (s: LimitShape) => mean(limits.get(s), (m) => m.result.requests.average);
  const limitCpu = (s: LimitShape) => mean(limits.get(s), (m) => m.cpuPerRequest);
  const line = (name: string, m: Measured, shape: LimitShape, queries: string) => {
    const bad = failures(m.result);
    if (bad) broken = true;
    return [
      name,
      fmt(m.result.requests.average),
      times(m.result.requests.average / limitRps(shape)),
      fmt(m.cpuPerRequest, 1),
      times(limitCpu(shape) / m.cpuPerRequest),
      ms(m.result.latency.p50),
      ms(m.result.latency.p99),
      `${Math.round(m.cpuShare * 100)}%`,
      queries,
      bad
        ? `${bad} (errors ${m.result.errors}, non-2xx ${m.result.non2xx}, mismatches ${m.result.mismatches})`
        : `0${m.bodyChecked ? '' : '*'}`,
    ];
  };
  const out: string[][] = [];
  for (const [shape, ms] of limits)
    ms.forEach((m, i) =>
      out.push(line(`limit ${shape} (${i ? 'after' : 'before'})`, m, shape, '–')),
    );
  for (const c of cases)
    if (rows.has(c.id))
      out.push(
        line(c.id, rows.get(c.id)!, c.limit, queriesText(counts.find((x) => x.id === c.id))),
      );
  console.log(
    `\n${engine}: hamlet serve --demo (LOG_LEVEL ${process.env.LOG_LEVEL ?? 'info'}), load average now ${load3()}`,
  );
  console.log(
    table(
      [
        'case',
        'req/s',
        '×limit',
        'µs CPU/req',
        '×limit',
        'p50 ms',
        'p99 ms',
        'server CPU',
        'DB statements/req',
        'failed',
      ],
      out,
    ),
  );
  if ([...rows.values()].some((m) => !m.bodyChecked))
    console.log(
      '*: its answers differ from one request to the next, so the run checked their status only (a right answer was verified before).',
    );
  const unsaturated = [...rows].filter(([, m]) => m.cpuShare < 0.85).map(([id]) => id);
  if (unsaturated.length)
    console.log(
      `note: the server used under 85% of a core for ${unsaturated.join(', ')}: the machine was busy or the load generator was the limit, so req/s understates it; CPU per request is not affected.`,
    );
}

function profileReport(startedAt: number, rows: Map<string, Measured>): void {
  const file = mainThreadProfile(profileDir!, startedAt);
  if (!file) {
    console.log('PROBLEM: serve wrote no .cpuprofile');
    broken = true;
    return;
  }
  console.log(`\nCPU profile of serve: ${file}`);
  for (const [id, m] of rows) {
    const s = summarizeProfile(file, { fromMicros: m.from, toMicros: m.to }, ROOT);
    console.log(
      `\n${id}: top self time (${s.samples} samples, idle excluded); async_hooks frames ${(s.asyncHooksShare * 100).toFixed(1)}%`,
    );
    for (const f of s.top)
      console.log(`  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
  }
}

console.log(
  `Real-server bench: node ${process.version}, ${cpus().length} CPUs, load average ${load3()}\n` +
    `${connections} connections, ${warmup} s warm-up + ${duration} s per case; limit measured before and after the cases; engines: ${engines.join(', ')}`,
);
for (const engine of engines) await pass(engine as 'sqlite' | 'postgres');
console.log(`\nload average after: ${load3()}`);
if (broken) {
  console.error(
    '\nINVALID: some requests failed or answered wrongly; the numbers above do not count.',
  );
  process.exitCode = 1;
}
