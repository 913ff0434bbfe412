// SQLite's write lock held by another process: this process's event loop keeps turning (no
// busy_timeout sleep inside it), reads answer at once, a single-statement write and a transaction
// wait for the lock and then succeed, and a statement inside an open transaction is never retried.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase } from '../../src/store/open.ts';
import { holdWriteLock } from './lock-holder.ts';

const dir = mkdtempSync(join(tmpdir(), 'hamlet-sqlite-lock-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('while another process holds the write lock for 2 s: the loop turns, reads answer, writes wait and succeed', async () => {
  const file = join(dir, 'wait.db');
  const { store } = await openDatabase(`sqlite:${file}`);
  try {
    const before = await store.people.create({ displayName: 'Before the lock' });
    const holder = await holdWriteLock(file, 2000);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const since = () => performance.now() - holder.lockedAt;
    const single = store.people
      .create({ displayName: 'One statement' })
      .then((p) => ({ p, at: since() }));
    const transaction = store
      .transaction(async (tx) => {
        const a = await tx.people.create({ displayName: 'In a transaction' });
        const b = await tx.people.getById(a.id);
        return b;
      })
      .then((p) => ({ p, at: since() }));
    const read = await store.people.getById(before.id);
    const readAt = since();
    const [one, many] = await Promise.all([single, transaction]);
    const releasedAt = (await holder.released) - holder.lockedAt;
    delay.disable();

    assert.equal(read?.displayName, 'Before the lock');
    assert.ok(readAt < 1000, `a read waited ${readAt.toFixed(0)} ms for a lock it does not need`);
    assert.equal(one.p.displayName, 'One statement');
    assert.equal(many.p?.displayName, 'In a transaction');
    // Both writes had to wait for the release, and got in soon after it.
    for (const at of [one.at, many.at]) {
      assert.ok(
        at >= releasedAt - 50,
        `a write finished at ${at.toFixed(0)} ms, before the release`,
      );
      assert.ok(
        at < releasedAt + 1000,
        `a write finished ${(at - releasedAt).toFixed(0)} ms after the release`,
      );
    }
    // One stall of the whole hold (2 s) is what a busy_timeout inside the event loop gave.
    const maxMs = delay.max / 1e6;
    assert.ok(maxMs < 1000, `the event loop stalled ${maxMs.toFixed(0)} ms waiting for the lock`);
  } finally {
    await store.close();
  }
});

test('a statement inside an open transaction that meets the lock fails at once, never run again', async () => {
  const file = join(dir, 'no-retry.db');
  const { store, db } = await openDatabase(`sqlite:${file}`);
  try {
    await store.people.create({ displayName: 'Someone' });
    await db.connection().execute(async (conn) => {
      // A deferred transaction (not how Hamlet writes: it begins with BEGIN IMMEDIATE) that read
      // before another process took the lock: its write cannot wait, it must fail and roll back.
      await sql`begin`.execute(conn);
      await sql`select count(*) from people`.execute(conn);
      const holder = await holdWriteLock(file, 1500);
      const t0 = performance.now();
      await assert.rejects(
        sql`update people set display_name = 'Changed'`.execute(conn),
        (err: { code?: string }) => String(err.code).startsWith('SQLITE_BUSY'),
      );
      assert.ok(performance.now() - t0 < 500, 'the write inside the transaction was retried');
      await sql`rollback`.execute(conn);
      await holder.released;
    });
    const rows = await sql<{
      n: number;
    }>`select count(*) as n from people where display_name = 'Changed'`.execute(db);
    assert.equal(Number(rows.rows[0]!.n), 0);
  } finally {
    await store.close();
  }
});
