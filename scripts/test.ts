// The whole test suite: the type check, every *.test.ts under src/ and test/ (node:test), then the
// MCP conformance suite. Ends with one line "N passed, N failed" and a non-zero exit if anything failed.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

async function run(cmd: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let output = '';
    const tee = (chunk: Buffer, stream: NodeJS.WriteStream) => {
      output += chunk.toString();
      stream.write(chunk);
    };
    child.stdout.on('data', (c: Buffer) => tee(c, process.stdout));
    child.stderr.on('data', (c: Buffer) => tee(c, process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const only = process.argv.slice(2);
const files = (only.length ? only : [...findTests('src'), ...findTests('test')]).sort();
let passed = 0;
let failed = 0;

if (!only.length) {
  // Static checks, each one counted line: strict TypeScript over the whole tree (tsx strips types
  // without checking them), type-aware lint (no promise or emitter error left unobserved) and the
  // formatter (print width 100, so the 400-line rule measures something).
  const checks: Array<[string, string[]]> = [
    [
      'typecheck (tsc --noEmit, strict)',
      ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'],
    ],
    ['lint (eslint, type-aware promise rules)', ['node_modules/eslint/bin/eslint.js', '.']],
    ['format (prettier --check)', ['node_modules/prettier/bin/prettier.cjs', '--check', '.']],
  ];
  for (const [name, args] of checks) {
    const check = await run(process.execPath, args);
    console.log(`${check.code === 0 ? '✔' : '✖'} ${name}`);
    if (check.code === 0) passed++;
    else failed++;
  }
}

const unit = await run(process.execPath, [
  '--import',
  'tsx',
  '--test',
  '--test-concurrency=2',
  '--test-reporter=spec',
  ...files,
]);
// node:test's spec reporter ends with "ℹ pass N", "ℹ fail N", … lines.
const count = (label: string) =>
  Number(unit.output.match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'))?.[1] ?? 0);
passed += count('pass');
failed += count('fail') + count('cancelled');
const skipped = count('skipped');
if (unit.code !== 0 && count('fail') + count('cancelled') === 0) failed += 1; // the runner itself broke

if (!only.length && process.env.HAMLET_SKIP_CONFORMANCE !== '1') {
  const conf = await run(process.execPath, ['--import', 'tsx', 'scripts/conformance.ts']);
  const m = conf.output.match(/^Conformance: (\d+) scenarios passed, (\d+) failed$/m);
  if (!m)
    failed += 1; // the suite did not report
  else {
    passed += Number(m[1]);
    failed += Number(m[2]);
    if (conf.code !== 0 && Number(m[2]) === 0) failed += 1; // it failed without saying which scenario
  }
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
