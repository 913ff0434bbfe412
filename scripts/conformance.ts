// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) for both protocol eras
// the endpoint speaks, 2025-11-25 (initialize, sessions) and 2026-07-28 (per-request `_meta`):
//  1. every server scenario of each era (`--suite all --spec-version <era>`) against the fixture
//     surface served by Hamlet's real MCP stack (test/conformance), and
//  2. the scenarios that need none of the suite's diagnostic tools against the real community and
//     network servers of a Hamlet started on the demo data (the community's with its agent key).
// The suite needs Node ≥ 22, so it runs on the Node 22 binary of the `node` dev dependency. A
// scenario counts as passed only when it made at least one successful check and none failed or
// warned (some scenarios "pass" with zero checks when a tool is missing; that is not a pass here).
// Each scenario is a process of the suite's client that mostly waits on the server: they run
// HAMLET_CONFORMANCE_PARALLEL at a time (default 4), the two eras of the fixture side by side.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../src/config/config.ts';
import { freshDemoAgentKey } from '../src/demo/demo-key.ts';
import { startHamlet } from '../src/main.ts';
import { startFixtureServer } from '../test/conformance/fixture-server.ts';
import { sqliteFromTemplate } from '../test/helpers/template.ts';

const root = resolve(import.meta.dirname, '..');
const node22 = join(root, 'node_modules/node/bin/node');
const cli = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
// The suite's client resolves *.localhost through Node's resolver, which glibc does not map to loopback.
const localhostDns = join(root, 'test/helpers/localhost-dns.mjs');
// The suite sends no credentials; this lets it call a community server with that community's key.
const withKey = join(root, 'test/helpers/conformance-auth.mjs');
const verbose = process.argv.includes('--verbose');
const only = process.argv.find((a) => a.startsWith('--scenario='))?.slice('--scenario='.length);

type Era = '2025-11-25' | '2026-07-28';
const ERAS: Era[] = ['2025-11-25', '2026-07-28'];

/** What the real servers are held to, per era: scenarios that call none of the suite's own tools. */
const PRODUCT: Record<Era, string[]> = {
  '2025-11-25': [
    'server-initialize',
    'server-session-lifecycle',
    'logging-set-level',
    'ping',
    'tools-list',
    'prompts-list',
    'resources-list',
    'server-sse-multiple-streams',
  ],
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'caching',
    'http-header-validation',
    'sep-2164-resource-not-found',
    'prompts-list',
    'resources-list',
  ],
};
// The suite runs dns-rebinding-protection only against literal loopback names (localhost, 127.0.0.1,
// [::1]), so not on acme.localhost (test/e2e/error-matrix.test.ts covers foreign hosts there); the
// custom-header scenario needs a tool that mirrors an argument into a header: the network's do.
const NETWORK_ONLY: Record<Era, string[]> = {
  '2025-11-25': ['dns-rebinding-protection'],
  '2026-07-28': ['dns-rebinding-protection', 'http-custom-header-server-validation'],
};
/**
 * Checks of server-stateless that call the suite's diagnostic tools (test_missing_capability,
 * test_streaming_elicitation, test_logging_tool, test_trigger_*_change). A product server does not
 * list them, so on it they report "not testable"; the fixture run holds the same engine to them.
 */
const DIAGNOSTIC_CHECKS = new Set([
  'sep-2575-server-rejects-undeclared-capability',
  'sep-2575-missing-capability-http-400',
  'sep-2575-http-server-no-independent-requests-on-stream',
  'sep-2575-server-no-log-without-loglevel',
  'sep-2575-server-sends-prompts-list-changed-on-subscription',
  'sep-2575-server-sends-tools-list-changed-on-subscription',
]);

type Check = { id: string; name: string; status: string; errorMessage?: string };
type Outcome = {
  label: string;
  scenario: string;
  pass: boolean;
  succeeded: number;
  excused: number;
  problems: Check[];
};
type Target = {
  label: string;
  url: string;
  era: Era;
  scenarios: string[] | 'all';
  key?: string;
  product?: boolean;
};

/** The scenario runs at once: each is a process that mostly waits on the server it tests. */
const PARALLEL = Number(process.env.HAMLET_CONFORMANCE_PARALLEL) || 4;

/** `work` over `items`, at most PARALLEL at a time; the answers in the order of `items`. */
async function inPool<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      answers[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return answers;
}

async function run(t: Target): Promise<Outcome[]> {
  const work = mkdtempSync(join(tmpdir(), 'hamlet-conformance-'));
  const results = join(work, 'results');
  const invocations =
    t.scenarios === 'all' ? [['--suite', 'all']] : t.scenarios.map((s) => ['--scenario', s]);
  const env = {
    ...process.env,
    HAMLET_CONFORMANCE_AUTH: t.key ? `${new URL(t.url).host}=${t.key}` : '',
  };
  const outputs = await inPool(invocations, async (extra) => {
    return new Promise<string>((done) => {
      const args = [
        '--import',
        localhostDns,
        '--import',
        withKey,
        cli,
        'server',
        '--url',
        t.url,
        '--spec-version',
        t.era,
        '-o',
        results,
        ...extra,
      ];
      const child = spawn(node22, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c));
      child.stderr.on('data', (c: Buffer) => (out += c));
      child.on('close', () => done(out));
    });
  });
  const output = outputs.join('');
  if (verbose) console.log(output);
  const ran =
    t.scenarios === 'all'
      ? [...output.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]!)
      : t.scenarios;
  const dirs = existsSync(results) ? readdirSync(results) : [];
  const label = `${t.label} ${t.era}`;
  const outcomes = ran.map((scenario): Outcome => {
    const dir = dirs.find((d) => d.startsWith(`server-${scenario}-`));
    const checks: Check[] = dir
      ? JSON.parse(readFileSync(join(results, dir, 'checks.json'), 'utf8'))
      : [];
    const excusable = (c: Check) => t.product === true && DIAGNOSTIC_CHECKS.has(c.id);
    const succeeded = checks.filter((c) => c.status === 'SUCCESS').length;
    const failing = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    const problems = failing.filter((c) => !excusable(c));
    return {
      label,
      scenario,
      pass: succeeded > 0 && problems.length === 0,
      succeeded,
      excused: failing.length - problems.length,
      problems,
    };
  });
  rmSync(work, { recursive: true, force: true });
  if (outcomes.length === 0) {
    console.log(output);
    return [
      {
        label,
        scenario: '(suite did not run)',
        pass: false,
        succeeded: 0,
        excused: 0,
        problems: [],
      },
    ];
  }
  return outcomes;
}

function report(outcomes: Outcome[]): void {
  for (const o of outcomes) {
    const extra = `${o.problems.length ? `, ${o.problems.length} failed or warned` : ''}${o.excused ? `, ${o.excused} need the suite's diagnostic tools (run on the fixture)` : ''}`;
    console.log(
      `${o.pass ? '✓' : '✗'} conformance [${o.label}] ${o.scenario} (${o.succeeded} checks succeeded${extra})`,
    );
    for (const c of o.problems) console.log(`    ${c.status} ${c.name}: ${c.errorMessage ?? ''}`);
  }
}

if (!existsSync(node22) || !existsSync(cli)) {
  console.error(
    'conformance: run `npm install` first (needs the `node` and `@modelcontextprotocol/conformance` dev dependencies).',
  );
  console.log('Conformance: 0 scenarios passed, 1 failed');
  process.exit(1);
}

const outcomes: Outcome[] = [];

const fixture = await startFixtureServer();
try {
  const scenarios = only ? [only] : ('all' as const);
  const eras = await Promise.all(
    ERAS.map((era) => run({ label: 'fixture', url: fixture.url, era, scenarios })),
  );
  outcomes.push(...eras.flat());
} finally {
  await fixture.close();
}

if (!only) {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-conformance-app-'));
  await sqliteFromTemplate(join(dir, 'hamlet.db'), 'demo');
  const silent = new Writable({ write: (_c, _e, done) => done() });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`,
    LOG_LEVEL: 'silent',
  });
  const hamlet = await startHamlet(config, {
    demo: true,
    handleSignals: false,
    logDestination: silent,
  });
  const port = new URL(hamlet.url).port;
  const key = (await freshDemoAgentKey(hamlet.store, hamlet.services.agents))?.key;
  try {
    for (const era of ERAS) {
      outcomes.push(
        ...(await run({
          label: 'community acme',
          url: `http://acme.localhost:${port}/api/mcp`,
          era,
          scenarios: PRODUCT[era],
          key,
          product: true,
        })),
      );
      outcomes.push(
        ...(await run({
          label: 'network',
          url: `http://localhost:${port}/api/mcp`,
          era,
          scenarios: [...PRODUCT[era], ...NETWORK_ONLY[era]],
          product: true,
        })),
      );
    }
  } finally {
    await hamlet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

report(outcomes);
for (const era of ERAS) {
  const mine = outcomes.filter((o) => o.label.endsWith(era));
  const checks = mine.reduce((n, o) => n + o.succeeded, 0);
  console.log(
    `Conformance ${era}: ${mine.filter((o) => o.pass).length}/${mine.length} scenarios passed, ${checks} checks succeeded`,
  );
}
const passed = outcomes.filter((o) => o.pass).length;
const failed = outcomes.length - passed;
console.log(`Conformance: ${passed} scenarios passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
