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
//   node --import tsx bench/real-server.ts --checkout=../old --by-host --cases='mcp-2025 ping'   # an older checkout
//
// Every case is measured --rounds times (2 by default), the limit before each round and after the
// last; each round's ratios are to the limit around it, and their range shows how noisy the run was.
//
// Exit code 1 when any request fails or answers wrongly (the numbers would mean nothing).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerChild } from './lib/child.ts';
import { mainThreadProfile } from './lib/cpu-profile.ts';
import { failures, load } from './lib/load.ts';
import { positiveNumber, readOptions } from './lib/options.ts';
import { throwawayDatabase } from './lib/pg-database.ts';
import { processCpuMicros } from './lib/proc-cpu.ts';
import { countQueries } from './lib/query-count.ts';
import { answeredByLimit, limitRequests, realCases, type LimitShape } from './lib/real-cases.ts';
import { LIMIT_ANSWERS_ENV } from './lib/servers.ts';
import { compareReport, load3, profileReport, report, type Measured } from './lib/real-report.ts';
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
  rounds: { default: '2', help: 'times every case is measured (the spread shows the noise)' },
  checkout: {
    default: '',
    help: 'serve another checkout (its bin/hamlet.js); statements are not counted then',
  },
  compare: {
    default: '',
    help: 'another checkout served beside this one on its own database, measured right after it in every round',
  },
  'by-host': {
    default: 'false',
    help: 'address acme by Host acme.localhost instead of /c/acme (checkouts before the path form)',
  },
});
const quick = opts.quick === 'true' || opts.quick === '';
const duration = quick ? 1 : positiveNumber('duration', opts.duration);
const warmup = quick ? 0 : Number(opts.warmup);
if (!Number.isFinite(warmup) || warmup < 0) throw new Error('warmup must be ≥ 0');
const connections = Math.round(positiveNumber('connections', opts.connections));
const checkout = opts.checkout ? resolve(opts.checkout) : undefined;
// Statements are counted by this checkout's code (lib/query-count-child.ts), so not for another.
const countRequests = checkout ? 0 : quick ? 5 : Math.round(Number(opts.count));
const rounds = quick ? 1 : Math.round(positiveNumber('rounds', opts.rounds));
const byHost = opts['by-host'] === 'true' || opts['by-host'] === '';
const compare = opts.compare ? resolve(opts.compare) : undefined;
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
    // Counted in the row only if they go on in the measured run (the first requests may time out).
    if (failures(w) > 0)
      process.stderr.write(
        `  ${url}: ${failures(w)} failed during warm-up (errors ${w.errors}, timeouts ${w.timeouts}, non-2xx ${w.non2xx}, mismatches ${w.mismatches})\n`,
      );
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
  // A page that says how long ago things happened ("5 min ago") changes as the clock moves: its
  // body is checked by `check` only, not compared byte for byte under load.
  return a.text === b.text && !a.text.includes('<time ') ? a.text : undefined;
}

let broken = false;

async function pass(engine: 'sqlite' | 'postgres'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-real-bench-'));
  const pg = engine === 'postgres' ? await throwawayDatabase(postgresUrl) : undefined;
  const otherPg =
    compare && engine === 'postgres' ? await throwawayDatabase(postgresUrl) : undefined;
  const env: Record<string, string> = {
    DATABASE_URL: pg?.url ?? `sqlite:${join(dir, 'hamlet.db')}`,
    ...RAISED_LIMITS,
  };
  if (byHost) env.HAMLET_BASE_DOMAIN = 'localhost';
  const startedAt = Date.now();
  /** Each case's measurements, one per round. */
  const rows = new Map<string, Measured[]>();
  const otherRows = new Map<string, Measured[]>();
  const limits = new Map<LimitShape, Measured[]>();
  const problems: string[] = [];
  let cases = realCases('');
  try {
    process.stderr.write(`${engine}: starting hamlet serve --demo…\n`);
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const serve = await startServe(env, {
      logFile: join(dir, 'serve.log'),
      root: checkout,
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    const other = compare
      ? await startServe(
          { ...env, DATABASE_URL: otherPg?.url ?? `sqlite:${join(dir, 'other.db')}` },
          { logFile: join(dir, 'other.log'), root: compare },
        ).catch(async (err: unknown) => {
          await serve.stop();
          throw err;
        })
      : undefined;
    // The limit answers a tools/list with the result the real server gave for the same request.
    const answers: Record<string, unknown> = {};
    for (const c of answeredByLimit(realCases(serve.key, byHost))) {
      const a = await send(serve.origin + c.path, c.request);
      answers[c.request.body ?? ''] = (JSON.parse(a.text) as { result: unknown }).result;
    }
    process.env[LIMIT_ANSWERS_ENV] = join(dir, 'limit-answers.json');
    writeFileSync(process.env[LIMIT_ANSWERS_ENV], JSON.stringify(answers));
    const limit = await startServerChild('limit').catch(async (err: unknown) => {
      await serve.stop();
      await other?.stop();
      throw err;
    });
    try {
      cases = realCases(serve.key, byHost);
      const limitOf = limitRequests(cases);
      const shapes = [...new Set(cases.filter((c) => selected.includes(c.id)).map((c) => c.limit))];
      const limitExpected = new Map<LimitShape, string | undefined>();
      for (const shape of shapes)
        limitExpected.set(
          shape,
          await verified(limit.url, limitOf(shape), (a) =>
            a.status === 200 ? undefined : `HTTP ${a.status}`,
          ),
        );
      const measureLimits = async () => {
        for (const shape of shapes) {
          process.stderr.write(`  limit (${shape})…\n`);
          const m = await measure(limit.url, limitOf(shape), limit.pid, limitExpected.get(shape));
          limits.set(shape, [...(limits.get(shape) ?? []), m]);
        }
      };
      const chosen = cases.filter((x) => selected.includes(x.id));
      const otherCases = other
        ? realCases(other.key, byHost).filter((x) => selected.includes(x.id))
        : [];
      // Every case is checked once first: a wrong answer stops the run, and what a server learns
      // in the background from a first request (a search's lexicon: its scores then change) is
      // under way. The byte-for-byte reference is taken after the first limits, once settled.
      for (const c of chosen) await verified(serve.origin + c.path, c.request, c.check);
      for (const c of otherCases) await verified(other!.origin + c.path, c.request, c.check);
      // The limit before every round and after the last: round r is compared with limits r and r+1.
      await measureLimits();
      const expected = new Map<string, string | undefined>();
      for (const c of chosen)
        expected.set(c.id, await verified(serve.origin + c.path, c.request, c.check));
      const otherExpected = new Map<string, string | undefined>();
      for (const c of otherCases)
        otherExpected.set(c.id, await verified(other!.origin + c.path, c.request, c.check));
      for (let r = 0; r < rounds; r++) {
        for (const c of chosen) {
          process.stderr.write(`  round ${r + 1}: ${c.id}…\n`);
          const mine = async () => {
            const m = await measure(
              serve.origin + c.path,
              c.request,
              serve.pid,
              expected.get(c.id),
            );
            rows.set(c.id, [...(rows.get(c.id) ?? []), m]);
          };
          const o = otherCases.find((x) => x.id === c.id);
          const theirs = async () => {
            if (!other || !o) return;
            const m = await measure(
              other.origin + o.path,
              o.request,
              other.pid,
              otherExpected.get(c.id),
            );
            otherRows.set(c.id, [...(otherRows.get(c.id) ?? []), m]);
          };
          // The second of a pair measured tends to come out cheaper: the order swaps every round.
          if (r % 2 === 0) {
            await mine();
            await theirs();
          } else {
            await theirs();
            await mine();
          }
        }
        await measureLimits();
      }
    } finally {
      await limit.stop();
      const otherErrors = (await other?.stop()) ?? [];
      if (otherErrors.length)
        problems.push(
          `${compare} logged ${otherErrors.length} error(s), the first: ${otherErrors[0]!.slice(0, 500)}`,
        );
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
    const title = `${engine}: hamlet serve --demo${checkout ? ` of ${checkout}` : ''} (LOG_LEVEL ${process.env.LOG_LEVEL ?? 'info'})`;
    if (report(title, cases, rows, limits, counts?.counts ?? [])) broken = true;
    if (compare) {
      if (report(`${engine}: hamlet serve --demo of ${compare}`, cases, otherRows, limits, []))
        broken = true;
      compareReport(compare, rows, otherRows);
    }
    if (opts.sql === 'true')
      for (const c of counts?.counts ?? [])
        console.log(
          `\n${c.id}: ${c.last.length} statement(s)\n${c.last.map((q) => `  ${q}`).join('\n')}`,
        );
    for (const p of problems) console.log(`PROBLEM: ${p}`);
    if (problems.length) broken = true;
    if (profileDir) {
      const file = mainThreadProfile(profileDir, startedAt);
      if (file) profileReport(file, rows, checkout ? `${checkout}/` : ROOT);
      else {
        console.log('PROBLEM: serve wrote no .cpuprofile');
        broken = true;
      }
    }
  } finally {
    await pg?.drop();
    await otherPg?.drop();
    rmSync(dir, { recursive: true, force: true });
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
