// What each test file costs: runs the given test files (default: every *.test.ts under src/ and
// test/) one per process from the compiled copy of the checkout, as scripts/test.ts does, and prints
// each file's wall and CPU seconds (user + system of the process and everything it waited for:
// servers, CLI children, the browser), most CPU first, with the totals. CPU-seconds are the figure to
// compare on a shared machine: wall time there depends on the neighbours.
// HAMLET_TEST_CONCURRENCY: files at a time (default 2). Output: a table on stdout, and the figures as
// JSON in <test cache>/profile.json.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE } from '../test/helpers/build-cache.ts';
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

type Figure = { file: string; wall: number; cpu: number; ok: boolean };

const only = process.argv.slice(2);
const files = (only.length ? only : [...findTests('src'), ...findTests('test')]).sort();
const compiled = await compiledTree();
const concurrency = Number(process.env.HAMLET_TEST_CONCURRENCY) || 2;

/** One file under /usr/bin/time: elapsed, user and system seconds of it and its waited children. */
async function measure(file: string, slot: number): Promise<Figure> {
  const out = join(CACHE, `profile.${process.pid}.${slot}.txt`);
  return new Promise((resolve) => {
    const child = spawn(
      '/usr/bin/time',
      [
        '-f',
        '%e %U %S',
        '-o',
        out,
        process.execPath,
        '--enable-source-maps',
        '--test',
        join(compiled, file.replace(/\.ts$/, '.js')),
      ],
      { stdio: 'ignore' },
    );
    child.on('close', (code) => {
      const [wall = 0, user = 0, sys = 0] = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .pop()!
        .split(' ')
        .map(Number);
      rmSync(out, { force: true });
      resolve({ file, wall, cpu: user + sys, ok: code === 0 });
    });
  });
}

const figures: Figure[] = [];
const queue = [...files];
const started = Date.now();
await Promise.all(
  Array.from({ length: concurrency }, async (_, slot) => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const figure = await measure(file, slot);
      figures.push(figure);
      console.error(
        `${figure.ok ? ' ' : '✖'} ${figure.cpu.toFixed(1).padStart(6)} CPU-s ${figure.wall.toFixed(1).padStart(6)} s  ${file}`,
      );
    }
  }),
);
figures.sort((a, b) => b.cpu - a.cpu);
const total = (key: 'cpu' | 'wall') => figures.reduce((sum, f) => sum + f[key], 0);
console.log('  CPU-s  wall-s  file');
for (const f of figures)
  console.log(
    `${f.ok ? ' ' : '✖'}${f.cpu.toFixed(1).padStart(6)} ${f.wall.toFixed(1).padStart(7)}  ${f.file}`,
  );
console.log(
  `${figures.length} files: ${total('cpu').toFixed(0)} CPU-s, ${total('wall').toFixed(0)} s of file wall, ` +
    `${Math.round((Date.now() - started) / 1000)} s elapsed at ${concurrency} at a time; ` +
    `${figures.filter((f) => !f.ok).length} failed`,
);
writeFileSync(join(CACHE, 'profile.json'), JSON.stringify(figures, null, 1));
