// The whole test suite: the type check, lint and format check, every *.test.ts under src/ and test/
// (node:test), then the MCP conformance suite. Ends with one line "N passed, N failed" and a
// non-zero exit if anything failed.
//
// They run side by side, not one after the other: the static checks are single-threaded and the
// conformance suite mostly waits on its client, so alone they leave cores idle that the test files
// use. Their output is held and printed as one block each when they end; the test files report
// live. Test files that took longest last time start first (durations kept in the template cache
// folder; a first run starts them in name order), so no long file starts last on its own. They run
// compiled to JavaScript (test/helpers/compiled-tree.ts): tsx's loader costs each test process
// more CPU than most of its tests do; and with test/helpers/lean-harness.mjs preloaded, which spares
// promise-heavy tests a third of their CPU in node:test's bookkeeping.
// HAMLET_TEST_CONCURRENCY sets how many test files run at once (default: cores + 1, since most
// files spend part of their time waiting on a server, a browser or a child process).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DURATIONS_OUTPUT,
  DURATIONS_REPORTER,
  loadDurations,
  prepareDurations,
  saveDurations,
} from '../test/helpers/durations.ts';
import { CACHE, pruneCache, ROOT } from '../test/helpers/build-cache.ts';
import { compiledTree } from '../test/helpers/compiled-tree.ts';

function findTests(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

type Run = { code: number; output: string };

/** Runs a command; `live` streams its output as it comes, otherwise it is only collected. */
async function run(
  cmd: string,
  args: string[],
  live: boolean,
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let output = '';
    const tee = (chunk: Buffer, stream: NodeJS.WriteStream) => {
      output += chunk.toString();
      if (live) stream.write(chunk);
    };
    child.stdout.on('data', (c: Buffer) => tee(c, process.stdout));
    child.stderr.on('data', (c: Buffer) => tee(c, process.stderr));
    child.on('error', (err) => resolve({ code: 1, output: `${output}\n${err.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const only = process.argv.slice(2);
const known = loadDurations();
const files = (only.length ? only : [...findTests('src'), ...findTests('test')])
  .sort()
  .sort((a, b) => (known[b] ?? 0) - (known[a] ?? 0));
const concurrency = Number(process.env.HAMLET_TEST_CONCURRENCY) || availableParallelism() + 1;
const node = process.execPath;
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;

// Static checks, each one counted line: strict TypeScript over the whole tree (tsx strips types
// without checking them), type-aware lint (no promise or emitter error left unobserved) and the
// formatter (print width 100, so the 400-line rule measures something). The type check and the lint
// share one TypeScript program (scripts/types-and-lint.ts: apart, they cost three type checks);
// its incremental state and prettier's cache (by content) are kept in the test cache folder, per
// checkout.
const state = join(
  CACHE,
  `checks-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}`,
);
mkdirSync(state, { recursive: true });
const report = (name: string, ok: boolean) => {
  console.log(`${ok ? '✔' : '✖'} ${name} (${seconds()})`);
  return ok;
};
const checks: Array<Promise<boolean>> = [];
if (!only.length) {
  const typesAndLint = run(
    node,
    ['--import', 'tsx', 'scripts/types-and-lint.ts', state],
    false,
  ).then((result) => {
    if (result.code !== 0) process.stdout.write(result.output);
    // Bit 1: the type check failed, bit 2: the lint; anything else (a crash) fails both.
    const broke = result.code > 3;
    return [
      report('typecheck (tsc --noEmit, strict)', !broke && (result.code & 1) === 0),
      report('lint (eslint, type-aware promise rules)', !broke && (result.code & 2) === 0),
    ];
  });
  checks.push(
    typesAndLint.then(([ok]) => ok!),
    typesAndLint.then(([, ok]) => ok!),
  );
  const format = [
    'node_modules/prettier/bin/prettier.cjs',
    '--check',
    '.',
    '--cache',
    '--cache-strategy',
    'content',
    '--cache-location',
    join(state, 'prettier-cache'),
  ];
  checks.push(
    run(node, format, false).then((result) => {
      if (result.code !== 0) process.stdout.write(result.output);
      return report('format (prettier --check)', result.code === 0);
    }),
  );
}

const conformance =
  !only.length && process.env.HAMLET_SKIP_CONFORMANCE !== '1'
    ? run(node, ['--import', 'tsx', 'scripts/conformance.ts'], false, {
        // Beside the test files: two scenarios at a time are enough to finish well before them.
        HAMLET_CONFORMANCE_PARALLEL: process.env.HAMLET_CONFORMANCE_PARALLEL ?? '2',
      }).then((result) => {
        process.stdout.write(result.output);
        console.log(`(conformance suite done at ${seconds()})`);
        return result;
      })
    : undefined;

// The test files run from a compiled copy of the checkout (test/helpers/compiled-tree.ts) unless
// HAMLET_TEST_COMPILED=0, which runs them through tsx.
pruneCache();
const compiled = process.env.HAMLET_TEST_COMPILED === '0' ? undefined : await compiledTree();
if (compiled) console.log(`(test files compiled to ${compiled})`);
prepareDurations();
const unit = await run(
  node,
  [
    ...(compiled ? ['--enable-source-maps'] : ['--import', 'tsx']),
    // node:test's own bookkeeping made lighter (test/helpers/lean-harness.mjs says how).
    '--import',
    join(ROOT, 'test/helpers/lean-harness.mjs'),
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${DURATIONS_REPORTER}`,
    `--test-reporter-destination=${DURATIONS_OUTPUT}`,
    ...(compiled ? files.map((f) => join(compiled, f.replace(/\.ts$/, '.js'))) : files),
  ],
  true,
);
saveDurations(known, compiled);
rmSync(DURATIONS_OUTPUT, { force: true });
console.log(`(test files done at ${seconds()}, ${concurrency} at a time)`);

let passed = 0;
let failed = 0;
for (const ok of await Promise.all(checks)) {
  if (ok) passed++;
  else failed++;
}

// node:test's spec reporter ends with "ℹ pass N", "ℹ fail N", … lines.
const count = (label: string) =>
  Number(unit.output.match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'))?.[1] ?? 0);
passed += count('pass');
failed += count('fail') + count('cancelled');
const skipped = count('skipped');
if (unit.code !== 0 && count('fail') + count('cancelled') === 0) failed += 1; // the runner itself broke

if (conformance) {
  const conf = await conformance;
  const m = conf.output.match(/^Conformance: (\d+) scenarios passed, (\d+) failed$/m);
  if (!m)
    failed += 1; // the suite did not report
  else {
    passed += Number(m[1]);
    failed += Number(m[2]);
    if (conf.code !== 0 && Number(m[2]) === 0) failed += 1; // it failed without saying which scenario
  }
}

console.log(`(${seconds()} in all)`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
