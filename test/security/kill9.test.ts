// Durability, on both engines: Hamlet runs as its own process (`hamlet serve`), agents write
// concurrently, and the process is killed with SIGKILL in the middle of it. Every write it
// acknowledged is in the database afterwards, exactly once. (SQLite in WAL with synchronous=NORMAL,
// the default, survives the process dying; the README's Durability section says what else.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/store/open.ts';
import { freePort, serveProcess } from '../helpers/serve.ts';
import { eachEngine } from './engines.ts';
import { callTool } from './mcp.ts';

const WRITERS = 6;
const KILL_AFTER_ACKS = 60;

eachEngine(
  'a write acknowledged before kill -9 is there after the restart, exactly once',
  async (engine, t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hamlet-kill9-'));
    const databaseUrl = engine.env.DATABASE_URL ?? `sqlite:${join(dir, 'hamlet.db')}`;
    const port = await freePort();
    try {
      const { child, key } = await serveProcess(
        { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' },
        { demo: true },
      );
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const url = `http://127.0.0.1:${port}/c/acme/api/mcp`;
      const acked: Array<{ title: string; topicId?: string; approvalId?: string }> = [];
      let attempts = 0;
      let killed = false;
      const writer = async (w: number) => {
        for (let i = 0; !killed; i++) {
          const title = `Durable question ${w}-${i} before the kill`;
          attempts++;
          const answer = await callTool(
            url,
            'create_topic',
            {
              category: 'support',
              title,
              body: `Body of ${title}.`,
              idempotency_key: `kill9-${w}-${i}-key`,
            },
            key!,
          ).catch(() => undefined);
          const s = answer?.structured;
          if (answer?.isError === false)
            acked.push({ title, topicId: s.topic?.id, approvalId: s.approval_id });
          if (acked.length >= KILL_AFTER_ACKS && !killed) {
            killed = true;
            child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      await exited;
      assert.ok(acked.length >= KILL_AFTER_ACKS, `${acked.length} writes acknowledged`);

      // The database as the next start finds it.
      const { store, db } = await openDatabase(databaseUrl);
      try {
        const acme = (await store.communities.getBySlug('acme'))!;
        const scope = store.community(acme.id);
        const missing: string[] = [];
        for (const a of acked) {
          const found = a.topicId
            ? await scope.topics.getById(a.topicId)
            : await scope.access.approvals.getById(a.approvalId!);
          if (!found) missing.push(a.title);
        }
        assert.deepEqual(
          missing,
          [],
          `acknowledged before the kill but gone after: ${missing.length} of ${acked.length}`,
        );
        const stored = await sql<{
          n: number;
        }>`select count(*) as n from topics where title like 'Durable question %'`.execute(db);
        const n = Number(stored.rows[0]!.n);
        assert.ok(
          n >= acked.filter((a) => a.topicId).length && n <= attempts,
          `${n} stored, ${acked.length} acknowledged, ${attempts} attempted`,
        );
        const titles = await sql<{
          title: string;
          n: number;
        }>`select title, count(*) as n from topics where title like 'Durable question %' group by title having count(*) > 1`.execute(
          db,
        );
        assert.deepEqual(titles.rows, [], 'no write was applied twice');
        t.diagnostic(
          `kill -9 (${engine.name}): ${acked.length} acknowledged of ${attempts} attempted, ${n} stored, 0 lost`,
        );
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('HAMLET_SQLITE_SYNCHRONOUS sets what a SQLite commit survives (default NORMAL)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-sync-'));
  try {
    // SQLite's numbers: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
    for (const [level, expected] of [
      [undefined, 1],
      ['FULL', 2],
      ['EXTRA', 3],
      ['OFF', 0],
    ] as const) {
      const { store, db } = await openDatabase(
        `sqlite:${join(dir, 'h.db')}`,
        level ? { sqliteSynchronous: level } : {},
      );
      const row = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      assert.equal(row.rows[0]!.synchronous, expected, String(level));
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
