// The MCP session store contract, once per implementation: in memory, SQLite, PostgreSQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { InMemorySessionStore } from '../../src/mcp/memory-sessions.ts';
import { KyselySessionStore } from '../../src/store/kysely/mcp-sessions.ts';
import { openStore } from '../../src/store/open.ts';
import type { Database } from '../../src/store/schema.ts';
import { defineSessionStoreContract } from './session-contract.ts';
import { freshPostgresDatabase } from './pg-database.ts';

defineSessionStoreContract('memory', async (limits) => ({
  store: new InMemorySessionStore({ ...limits, maxStreamsPerSession: 32 }),
  close: async () => {},
}));

defineSessionStoreContract('sqlite', async (limits) => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-sessions-'));
  const path = join(dir, 'hamlet.db');
  const migrated = await openStore(`sqlite:${path}`);
  await migrated.close();
  const database = new BetterSqlite3(path);
  database.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return {
    store: new KyselySessionStore(db, limits),
    close: async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

// Each factory call gets a database of its own, dropped on close.
const probe = await freshPostgresDatabase('sessions');
if (probe.ok) {
  await probe.drop();
  defineSessionStoreContract('postgres', async (limits) => {
    const s = await freshPostgresDatabase('sessions');
    if (!s.ok) throw new Error(s.reason);
    const migrated = await openStore(s.url);
    await migrated.close();
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: s.url, max: 4 }) }),
    });
    return {
      store: new KyselySessionStore(db, limits),
      close: async () => {
        await db.destroy();
        await s.drop();
      },
    };
  });
} else if (probe.fail) {
  test('MCP session store (postgres)', () => assert.fail(`CI=true but ${probe.reason}`));
} else {
  test('MCP session store (postgres)', { skip: probe.reason }, () => {});
}
