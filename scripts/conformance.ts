// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, all server scenarios)
// against the fixture surface served by Hamlet's real MCP stack. The suite needs Node ≥ 22, so it
// runs on the Node 22 binary of the `node` dev dependency. A scenario counts as passed only when it
// made at least one successful check and no check failed or warned.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFixtureServer } from '../test/conformance/fixture-server.ts';

const root = resolve(import.meta.dirname, '..');
const node22 = join(root, 'node_modules/node/bin/node');
const cli = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
if (!existsSync(node22) || !existsSync(cli)) {
  console.error('conformance: run `npm install` first (needs the `node` and `@modelcontextprotocol/conformance` dev dependencies).');
  console.log('Conformance: 0 scenarios passed, 1 failed');
  process.exit(1);
}

const fixture = await startFixtureServer();
const work = mkdtempSync(join(tmpdir(), 'hamlet-conformance-'));
const verbose = process.argv.includes('--verbose');
const scenarioArg = process.argv.find((a) => a.startsWith('--scenario='));
const args = [cli, 'server', '--url', fixture.url, '-o', join(work, 'results'), ...(scenarioArg ? ['--scenario', scenarioArg.slice(11)] : ['--suite', 'all'])];

const output = await new Promise<string>((done) => {
  const child = spawn(node22, args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (out += c));
  child.on('close', () => done(out));
});
await fixture.close();
if (verbose) console.log(output);

type Check = { id: string; name: string; status: string; errorMessage?: string };
const resultsDir = join(work, 'results');
const runs = existsSync(resultsDir) ? readdirSync(resultsDir) : [];
let passed = 0;
let failed = 0;
const scenarios = scenarioArg
  ? [scenarioArg.slice(11)]
  : [...output.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]!);
for (const scenario of scenarios) {
  const dir = runs.find((d) => d.startsWith(`server-${scenario}-`));
  const checks: Check[] = dir ? JSON.parse(readFileSync(join(resultsDir, dir, 'checks.json'), 'utf8')) : [];
  const ok = checks.filter((c) => c.status === 'SUCCESS').length;
  const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  const pass = ok > 0 && bad.length === 0;
  if (pass) passed++;
  else failed++;
  console.log(`${pass ? '✓' : '✗'} conformance ${scenario} (${ok} checks succeeded${bad.length ? `, ${bad.length} failed or warned` : ''})`);
  for (const c of bad) console.log(`    ${c.status} ${c.name}: ${c.errorMessage ?? ''}`);
}
if (scenarios.length === 0) {
  console.log(output);
  failed++;
}
rmSync(work, { recursive: true, force: true });
console.log(`Conformance: ${passed} scenarios passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
