// Runs the official MCP conformance suite (@modelcontextprotocol/conformance):
//  1. every server scenario (`--suite all`) against the fixture surface served by Hamlet's real MCP
//     stack (test/conformance), and
//  2. the scenarios that need no fixture tools against the real community and network servers of a
//     Hamlet started on the demo data.
// The suite needs Node ≥ 22, so it runs on the Node 22 binary of the `node` dev dependency. A
// scenario counts as passed only when it made at least one successful check and none failed or
// warned (some scenarios "pass" with zero checks when a tool is missing; that is not a pass here).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../src/config/config.ts';
import { startHamlet } from '../src/main.ts';
import { startFixtureServer } from '../test/conformance/fixture-server.ts';

const root = resolve(import.meta.dirname, '..');
const node22 = join(root, 'node_modules/node/bin/node');
const cli = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
// The suite's client resolves *.localhost through Node's resolver, which glibc does not map to loopback.
const localhostDns = join(root, 'test/helpers/localhost-dns.mjs');
const verbose = process.argv.includes('--verbose');
const only = process.argv.find((a) => a.startsWith('--scenario='))?.slice('--scenario='.length);

/** The scenarios a server without the fixture's test tools can be held to. */
const PRODUCT_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
// The suite runs dns-rebinding-protection only against literal loopback names (localhost,
// 127.0.0.1, [::1]), so not on acme.localhost; test/e2e/error-matrix.test.ts covers foreign hosts there.
const COMMUNITY_SCENARIOS = PRODUCT_SCENARIOS.filter((s) => s !== 'dns-rebinding-protection');

type Check = { id: string; name: string; status: string; errorMessage?: string };
type Outcome = { label: string; scenario: string; pass: boolean; succeeded: number; problems: Check[] };

async function run(label: string, url: string, scenarios: string[] | 'all'): Promise<Outcome[]> {
  const work = mkdtempSync(join(tmpdir(), 'hamlet-conformance-'));
  const results = join(work, 'results');
  const invocations = scenarios === 'all' ? [['--suite', 'all']] : scenarios.map((s) => ['--scenario', s]);
  let output = '';
  for (const extra of invocations) {
    output += await new Promise<string>((done) => {
      const child = spawn(node22, ['--import', localhostDns, cli, 'server', '--url', url, '-o', results, ...extra], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c));
      child.stderr.on('data', (c: Buffer) => (out += c));
      child.on('close', () => done(out));
    });
  }
  if (verbose) console.log(output);
  const ran = scenarios === 'all' ? [...output.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]!) : scenarios;
  const dirs = existsSync(results) ? readdirSync(results) : [];
  const outcomes = ran.map((scenario): Outcome => {
    const dir = dirs.find((d) => d.startsWith(`server-${scenario}-`));
    const checks: Check[] = dir ? JSON.parse(readFileSync(join(results, dir, 'checks.json'), 'utf8')) : [];
    const succeeded = checks.filter((c) => c.status === 'SUCCESS').length;
    const problems = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    return { label, scenario, pass: succeeded > 0 && problems.length === 0, succeeded, problems };
  });
  rmSync(work, { recursive: true, force: true });
  if (outcomes.length === 0) {
    console.log(output);
    return [{ label, scenario: '(suite did not run)', pass: false, succeeded: 0, problems: [] }];
  }
  return outcomes;
}

function report(outcomes: Outcome[]): void {
  for (const o of outcomes) {
    const extra = o.problems.length ? `, ${o.problems.length} failed or warned` : '';
    console.log(`${o.pass ? '✓' : '✗'} conformance [${o.label}] ${o.scenario} (${o.succeeded} checks succeeded${extra})`);
    for (const c of o.problems) console.log(`    ${c.status} ${c.name}: ${c.errorMessage ?? ''}`);
  }
}

if (!existsSync(node22) || !existsSync(cli)) {
  console.error('conformance: run `npm install` first (needs the `node` and `@modelcontextprotocol/conformance` dev dependencies).');
  console.log('Conformance: 0 scenarios passed, 1 failed');
  process.exit(1);
}

const outcomes: Outcome[] = [];

const fixture = await startFixtureServer();
try {
  outcomes.push(...(await run('fixture', fixture.url, only ? [only] : 'all')));
} finally {
  await fixture.close();
}

if (!only) {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-conformance-app-'));
  const silent = new Writable({ write: (_c, _e, done) => done() });
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`, LOG_LEVEL: 'silent' });
  const hamlet = await startHamlet(config, { demo: true, handleSignals: false, logDestination: silent });
  const port = new URL(hamlet.url).port;
  try {
    outcomes.push(...(await run('community acme', `http://acme.localhost:${port}/api/mcp`, COMMUNITY_SCENARIOS)));
    outcomes.push(...(await run('network', `http://localhost:${port}/api/mcp`, PRODUCT_SCENARIOS)));
  } finally {
    await hamlet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

report(outcomes);
const passed = outcomes.filter((o) => o.pass).length;
const failed = outcomes.length - passed;
console.log(`Conformance: ${passed} scenarios passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
