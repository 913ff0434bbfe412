// The whole test suite: every *.test.ts under src/ and test/ (node:test), then the MCP conformance
// suite. Ends with one line "N passed, N failed" and a non-zero exit if anything failed.
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

function run(cmd: string, args: string[]): Promise<{ code: number; output: string }> {
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

const unit = await run(process.execPath, [
  '--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files,
]);
const count = (label: string) => Number(/^ℹ (\w+) (\d+)$/m.test(unit.output)
  ? (unit.output.match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'))?.[1] ?? 0) : 0);
passed += count('pass');
failed += count('fail') + count('cancelled');
if (unit.code !== 0 && count('fail') + count('cancelled') === 0) failed += 1; // runner itself broke

if (!only.length && process.env.HAMLET_SKIP_CONFORMANCE !== '1') {
  const conf = await run(process.execPath, ['--import', 'tsx', 'scripts/conformance.ts']);
  const m = conf.output.match(/^Conformance: (\d+) scenarios passed, (\d+) failed$/m);
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  } else failed += 1;
  if (conf.code !== 0 && !(m && Number(m[2]) > 0)) failed += m ? 1 : 0;
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
