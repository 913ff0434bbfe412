// /readyz says whether this instance can do its work, not only whether it answers: a SQLite file
// that refuses writes (read-only at the start, or turned read-only while serving) answers reads and
// `select 1` but is not ready; with PostgreSQL it also reports the LISTEN connection several
// instances depend on. /heartbeat (liveness) stays 200 throughout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../../src/store/open.ts';
import { raw } from '../mcp/http-client.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

const root = process.getuid?.() === 0;

/**
 * Makes files refuse writes: for root, who writes through any mode bits, the immutable attribute
 * (chattr +i); for anyone else, mode 0444. Returns the undo, or undefined where neither works.
 */
function readOnly(paths: string[]): (() => void) | undefined {
  const present = paths.filter((p) => existsSync(p));
  try {
    if (root) execFileSync('chattr', ['+i', ...present], { stdio: 'ignore' });
    else for (const p of present) chmodSync(p, 0o444);
  } catch {
    return undefined;
  }
  return () => {
    if (root) execFileSync('chattr', ['-i', ...present], { stdio: 'ignore' });
    else for (const p of present) chmodSync(p, 0o644);
  };
}

async function readyz(h: TestHamlet) {
  const res = await raw(h.hostUrl('localhost', '/readyz'));
  return { status: res.status, body: res.json() };
}

async function until(check: () => Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a SQLite file that is read-only at the start: /readyz is 503 "not writable", /heartbeat 200', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-readyz-'));
  const file = join(dir, 'hamlet.db');
  const store = await openStore(`sqlite:${file}`);
  await store.close();
  const undo = readOnly([file]);
  if (!undo) return t.skip('cannot make a file read-only here (chattr unavailable)');
  let h: TestHamlet | undefined;
  try {
    h = await startTestHamlet({ DATABASE_URL: `sqlite:${file}` }, { keepDatabase: true });
    const ready = await readyz(h);
    assert.equal(ready.status, 503);
    assert.deepEqual(ready.body, { success: false, database: 'not writable' });
    assert.equal((await raw(h.hostUrl('localhost', '/heartbeat'))).status, 200);
    assert.ok(
      h.logs.some((l) => /not ready: database/.test(l)),
      'the reason is logged',
    );
  } finally {
    await h?.stop();
    undo();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a SQLite file turned read-only while serving: /readyz goes 503, and 200 again once it is writable', async (t) => {
  if (!root) return t.skip('an open file stays writable to its process unless immutable (root)');
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-readyz-'));
  const file = join(dir, 'hamlet.db');
  const h = await startTestHamlet({ DATABASE_URL: `sqlite:${file}` }, { keepDatabase: true });
  let undo: (() => void) | undefined;
  try {
    assert.deepEqual((await readyz(h)).body, { success: true, database: 'ok' });
    // The shared-memory file stays writable: SQLite maps it, and its pages are not the data.
    undo = readOnly([file, `${file}-wal`]);
    if (!undo) return t.skip('chattr unavailable');
    await until(async () => (await readyz(h)).status === 503, 5_000, '/readyz 503');
    assert.equal((await readyz(h)).body.database, 'not writable');
    undo();
    undo = undefined;
    await until(async () => (await readyz(h)).status === 200, 5_000, '/readyz 200 again');
  } finally {
    undo?.();
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('another process holding the SQLite write lock: /readyz does not wait for it, and is 200', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-readyz-'));
  const file = join(dir, 'hamlet.db');
  // The webhook dispatcher writes in the background (and would wait for the lock itself).
  const h = await startTestHamlet(
    { DATABASE_URL: `sqlite:${file}`, HAMLET_WEBHOOK_DISPATCH: '0' },
    { keepDatabase: true },
  );
  const other = new BetterSqlite3(file);
  try {
    other.exec('begin immediate');
    const started = performance.now();
    const ready = await readyz(h);
    const ms = performance.now() - started;
    assert.equal(ready.status, 200);
    // The busy timeout (seconds) would have stalled every request of the process meanwhile.
    assert.ok(ms < 1_000, `/readyz took ${Math.round(ms)} ms`);
  } finally {
    other.exec('rollback');
    other.close();
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with PostgreSQL, /readyz reports the LISTEN connection', async (t) => {
  const setup = await freshPostgresDatabase('readyz');
  if (!setup.ok) {
    if (setup.fail) assert.fail(setup.reason);
    return t.skip(setup.reason);
  }
  const h = await startTestHamlet({ DATABASE_URL: setup.url });
  try {
    await until(async () => (await readyz(h)).status === 200, 5_000, '/readyz 200');
    assert.deepEqual((await readyz(h)).body, {
      success: true,
      database: 'ok',
      listener: 'listening',
    });
  } finally {
    await h.stop();
    await setup.drop();
  }
});
