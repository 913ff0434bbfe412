// The shape of the source tree, checked: dependencies point one way (faces → operations → domain →
// store), the MCP engine knows nothing of Hamlet, no import cycles, no file in src/ over 400 lines,
// the rows of a write are written through the write runner only (no side door), and only the
// write runner opens a transaction in the domain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = 'src';

function sourceFiles(dir: string, out: string[] = [], tests = false): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out, tests);
    else if (name.endsWith('.ts') && (tests || !name.endsWith('.test.ts'))) out.push(path);
  }
  return out;
}

/** Relative imports of a file (static, re-exports and dynamic), resolved to paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2]!);
  return specs.filter((s) => s.startsWith('.')).map((s) => normalize(join(dirname(file), s)));
}

/** The layer a file belongs to: its folder under src/, or its own name for the files at the top. */
function layerOf(file: string): string {
  const parts = relative(ROOT, file).split('/');
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, '');
}

// What each layer may import (besides itself). Faces (cli, http, web, surfaces) sit on operations;
// operations on services and the domain; the domain on the store. The MCP engine is a library
// under the faces: it imports nothing of Hamlet, and the store implements its session-store port.
// outbound (the one guarded client for calls to other servers) is a library too, under the domain.
// config, log, version and bounded-cache (the one size-limited cache) are leaves every layer uses.
const BASE = ['config', 'log', 'version', 'bounded-cache'];
const ALLOWED: Record<string, string[]> = {
  config: [],
  log: [],
  'bounded-cache': [],
  version: [],
  mcp: [],
  outbound: [],
  store: [...BASE, 'mcp'],
  domain: [...BASE, 'store', 'outbound'],
  search: [...BASE, 'domain', 'store'],
  import: [...BASE, 'domain', 'store'],
  services: [...BASE, 'domain', 'search', 'store'],
  demo: [...BASE, 'domain', 'import', 'store', 'services'],
  operations: [...BASE, 'domain', 'search', 'store', 'services'],
  surfaces: [...BASE, 'mcp', 'operations', 'domain', 'store', 'services'],
  http: [...BASE, 'mcp', 'operations', 'domain', 'store', 'services', 'web'],
  web: [...BASE, 'operations', 'domain', 'store', 'services'],
  webhooks: [...BASE, 'operations', 'domain', 'store', 'services', 'outbound'],
  main: [
    ...BASE,
    'mcp',
    'operations',
    'surfaces',
    'http',
    'web',
    'webhooks',
    'domain',
    'search',
    'store',
    'services',
    'demo',
  ],
  cli: [...BASE, 'main', 'demo', 'import', 'domain', 'store', 'services', 'operations'],
};

const files = sourceFiles(ROOT);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

test('every import points down the layers, and the MCP engine imports nothing of Hamlet', () => {
  const wrong: string[] = [];
  for (const [file, imports] of graph) {
    const from = layerOf(file);
    const allowed = ALLOWED[from];
    assert.ok(
      allowed,
      `${file}: the layer "${from}" is not described in this test; add it to ALLOWED`,
    );
    for (const target of imports) {
      const to = layerOf(target);
      if (to !== from && !allowed.includes(to))
        wrong.push(`${file} → ${target} (${from} may not import ${to})`);
    }
  }
  // The store implements the engine's session-store port and nothing else of it.
  for (const [file, imports] of graph) {
    if (layerOf(file) !== 'store') continue;
    for (const target of imports)
      if (layerOf(target) === 'mcp' && !target.endsWith('session-store.ts'))
        wrong.push(`${file} → ${target} (the store may only implement the session-store port)`);
  }
  assert.deepEqual(wrong, []);
});

test('no import cycles', () => {
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
      return;
    }
    state.set(file, 'visiting');
    for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
  assert.deepEqual(cycles, []);
});

test('no file in src/ is over 400 lines', () => {
  const long = files
    .map((f) => ({ f, lines: readFileSync(f, 'utf8').split('\n').length }))
    .filter((x) => x.lines > 400)
    .map((x) => `${x.f}: ${x.lines} lines`);
  assert.deepEqual(long, []);
});

test('every file in src/ starts with a comment saying what it is for', () => {
  const bare = files.filter((f) => !/^\s*\/\//.test(readFileSync(f, 'utf8')));
  assert.deepEqual(bare, []);
});

test('only the write runner (src/domain/writes/) calls the ContentService write methods: no side door', () => {
  // The methods that write a new topic, reply, accepted answer or article without checking who may:
  // the runner has validated, loaded, authorized and decided the policy before it calls them.
  const methods = [
    ...readFileSync(join(ROOT, 'domain', 'content.ts'), 'utf8').matchAll(
      /^ {2}async (write[A-Z]\w*)\(/gm,
    ),
  ].map((m) => m[1]!);
  assert.deepEqual(
    ['writeTopic', 'writeReply', 'writeSolution', 'writeArticle'].filter(
      (m) => !methods.includes(m),
    ),
    [],
    'the write methods left src/domain/content.ts: point this check at where they are now',
  );
  const call = new RegExp(`\\.(?:${methods.join('|')})\\(`);
  const callers = ['src', 'test', 'bench', 'scripts']
    .flatMap((dir) => sourceFiles(dir, [], true))
    .filter((f) => !f.startsWith(join(ROOT, 'domain', 'writes') + '/'))
    .filter((f) => call.test(readFileSync(f, 'utf8')));
  assert.deepEqual(callers, [], 'write through services.writes.execute (or writeApplied) instead');
});

// Only the write runner (src/domain/writes/runner.ts) opens a transaction in the domain: every write
// is a use case it runs, so the ledger, the rows, the outbox and the audit entry commit together.
test('only the write runner opens a transaction in src/domain', () => {
  const opened: Record<string, number> = {};
  for (const file of files) {
    if (!file.startsWith(join(ROOT, 'domain')) || file === join(ROOT, 'domain/writes/runner.ts'))
      continue;
    // Code only: a comment may name the call.
    const code = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const calls = code.match(/\.transaction\s*\(/g)?.length ?? 0;
    if (calls) opened[file] = calls;
  }
  assert.deepEqual(opened, {}, 'write a use case for the runner (src/domain/writes/use-case.ts)');
});

// A suite run once per storage engine is a contract, named one way: a file `contract.ts` or
// `<subject>-contract.ts`, exporting `define<Subject>Contract(engine, factory)`, whose describe title
// reads `<subject> contract (<engine>)`.
test('suites run once per engine share one naming scheme', () => {
  const misnamed: string[] = [];
  for (const file of sourceFiles('test', [], true)) {
    const code = readFileSync(file, 'utf8');
    for (const [, name] of code.matchAll(/export function (define\w*)\(/g)) {
      const fileOk = /(^|-)contract\.ts$/.test(file.split('/').pop()!);
      if (!name!.endsWith('Contract') || !fileOk) misnamed.push(`${file}: ${name}`);
    }
    if (/(^|-)contract\.ts$/.test(file)) {
      for (const [, title] of code.matchAll(/describe\(`([^`]*)`/g))
        if (!/contract\b.*\(\$\{\w+\}\)/.test(title!)) misnamed.push(`${file}: "${title}"`);
    }
  }
  assert.deepEqual(misnamed, []);
});
