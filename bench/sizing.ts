// Sizing figures for docs/operations.md, on the engine DATABASE_URL (or TEST_POSTGRES_URL) names:
// RSS of a started server idle and after a few thousand requests, PostgreSQL connections the
// instance holds, and the database's growth per 1,000 posts. Prints one JSON line.
//   node --import tsx bench/sizing.ts sqlite|postgres
import { mkdtempSync } from 'node:fs';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { systemActor } from '../src/domain/actor.ts';
import { writeApplied } from '../src/domain/writes/applied.ts';
import { startTestHamlet } from '../test/app/helpers.ts';
import { freshPostgresDatabase } from '../test/store/pg-database.ts';

const engine = process.argv[2] ?? 'sqlite';
const dir = mkdtempSync(join(tmpdir(), 'hamlet-sizing-'));
const file = join(dir, 'hamlet.db');
const pgdb = engine === 'postgres' ? await freshPostgresDatabase('sizing') : undefined;
if (pgdb && !pgdb.ok) throw new Error(pgdb.reason);
const url = pgdb?.ok ? pgdb.url : `sqlite:${file}`;
const h = await startTestHamlet({ DATABASE_URL: url, LOG_LEVEL: 'warn' }, { demo: true });
const mb = () => Math.round(process.memoryUsage().rss / 1e5) / 10;
const size = async () => {
  if (!pgdb?.ok) {
    // Checkpointed, so that the figure is the database's and not the write-ahead log's.
    const db = new BetterSqlite3(file);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const wal = (() => {
      try {
        return statSync(`${file}-wal`).size;
      } catch {
        return 0;
      }
    })();
    return statSync(file).size + wal;
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query('select pg_database_size(current_database()) as s');
  await c.end();
  return Number(rows[0].s);
};
const connections = async () => {
  if (!pgdb?.ok) return null;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(
    "select count(*) filter (where application_name = 'hamlet') as n, count(*) - 1 as total from pg_stat_activity where datname = current_database()",
  );
  await c.end();
  return { pool: Number(rows[0].n), total: Number(rows[0].total) };
};
global.gc?.();
await new Promise((r) => setTimeout(r, 2000));
const idle = mb();
const acme = (await h.store.communities.getBySlug('acme'))!;
const base = `http://127.0.0.1:${h.port}/c/acme`;
const paths = ['/', '/llms', '/heartbeat', '/search?q=webhook+signature'];
for (let i = 0; i < 3000; i += 10)
  await Promise.all(
    Array.from({ length: 10 }, (_, j) =>
      fetch(`${base}${paths[(i + j) % paths.length]}`).then((r) => r.arrayBuffer()),
    ),
  );
const loaded = mb();
const heldConnections = await connections();
const before = await size();
for (let i = 0; i < 1000; i++)
  await writeApplied(h.services.writes, systemActor('sizing'), acme, 'topic.create', {
    category: 'general',
    title: `Sizing topic number ${i} about deployment`,
    body: `A post of a typical length: ${'some words about running Hamlet in production, '.repeat(8)}`,
  });
const after = await size();
console.log(
  JSON.stringify({
    engine,
    rssIdleMB: idle,
    rssAfter3000RequestsMB: loaded,
    pgConnections: heldConnections,
    bytesPer1kPosts: after - before,
  }),
);
await h.stop();
await pgdb?.drop?.();
