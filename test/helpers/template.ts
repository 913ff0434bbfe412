// Template databases for tests: migrated once (and, for 'demo', seeded with the demo once) per
// source tree, then copied per test instead of running every migration and the demo seed each time.
//
// How a test uses them:
//  - `startTestHamlet(env, { demo })` (test/app/helpers.ts) already does: a SQLite file that does not
//    exist yet, or an empty PostgreSQL database (as freshPostgresDatabase makes it), starts as a copy
//    of the template ('demo' with `demo: true`, else 'migrated'); `{ template: false }` runs the
//    real migrations and seed instead.
//  - A SQLite file of your own: `await sqliteFromTemplate(path, 'migrated' | 'demo')`.
//  - PostgreSQL: `await postgresFromTemplate(label, 'migrated' | 'demo')` gives a fresh database
//    (CREATE DATABASE … TEMPLATE …) with the same { ok, url, drop } answer as freshPostgresDatabase.
// The real migration path stays covered where it is the subject: the store contract tests, `serve
// --demo` / `seed demo` (test/e2e/demo-start.test.ts, test/import/cli.test.ts) and whatever opens a
// database with openStore/openDatabase directly.
//
// A SQLite template is a file under <tmpdir>/hamlet-test-templates named by a hash of src/ and the
// package files (so any change to migrations, the demo or the code that writes them builds a new
// one) and rebuilt when older than an hour (demo rows carry their build time; the edit window is a
// day). Concurrent test processes build it once: the builder holds <name>.lock (its pid inside; a
// lock whose process is gone is taken over) and renames the finished file into place. A PostgreSQL
// template is one database per cluster (with-postgres.sh makes a cluster per run), built under an
// advisory lock.
import { randomBytes } from 'node:crypto';
import { constants, copyFileSync, existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.ts';
import { ensureDemoCommunity } from '../../src/demo/demo.ts';
import { openHamlet } from '../../src/main.ts';
import type { PgSetup } from '../store/pg-database.ts';
import { buildOnce, sourceTreeHash } from './build-cache.ts';

export type TemplateKind = 'migrated' | 'demo';

const MAX_AGE_MS = 60 * 60 * 1000;

/** Migrates `databaseUrl` and, for 'demo', seeds the demo, as `hamlet seed demo` does. */
async function build(databaseUrl: string, kind: TemplateKind): Promise<void> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' });
  const opened = await openHamlet(config, { poolSize: 2 });
  try {
    if (kind === 'demo') await ensureDemoCommunity(opened.store, opened.services, config);
  } finally {
    await opened.close();
  }
}

const building = new Map<TemplateKind, Promise<string>>();

/** The path of the SQLite template of `kind`, built first if it is missing or stale. */
export async function sqliteTemplate(kind: TemplateKind): Promise<string> {
  let pending = building.get(kind);
  if (!pending) {
    pending = ensureSqliteTemplate(kind);
    building.set(kind, pending);
    pending.catch(() => building.delete(kind));
  }
  return pending;
}

async function ensureSqliteTemplate(kind: TemplateKind): Promise<string> {
  return buildOnce(
    `${sourceTreeHash()}-${kind}.db`,
    async (partial) => {
      await build(`sqlite:${partial}`, kind);
      // Closing the last connection checkpoints the WAL into the file: the file alone is the copy.
      new BetterSqlite3(partial).close();
      if (existsSync(`${partial}-wal`)) throw new Error(`the ${kind} template kept its WAL`);
    },
    MAX_AGE_MS,
  );
}

/** Writes a copy of the SQLite template of `kind` at `path` (its folder must exist). */
export async function sqliteFromTemplate(path: string, kind: TemplateKind): Promise<void> {
  copyFileSync(await sqliteTemplate(kind), path, constants.COPYFILE_FICLONE);
}

/** Runs `fn` with a connection to the PostgreSQL database at `url`. */
async function withAdmin<T>(base: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

const databaseUrl = (base: string, name: string) => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

const pgBuilt = new Map<string, Promise<string>>();

/** The name of the PostgreSQL template database of `kind` on TEST_POSTGRES_URL, built once. */
async function postgresTemplate(base: string, kind: TemplateKind): Promise<string> {
  const key = `${new URL(base).host} ${kind}`;
  let pending = pgBuilt.get(key);
  if (!pending) {
    pending = withAdmin(base, async (admin) => {
      const name = `hamlet_template_${kind}_${sourceTreeHash()}`;
      // Session-level: released when this connection ends, even if the process dies.
      await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return name;
      const partial = `${name}_${process.pid}`;
      await admin.query(`drop database if exists ${partial} with (force)`);
      await admin.query(`create database ${partial}`);
      try {
        await build(databaseUrl(base, partial), kind);
        await admin.query(`alter database ${partial} rename to ${name}`);
      } catch (err) {
        await admin.query(`drop database if exists ${partial} with (force)`);
        throw err;
      }
      return name;
    });
    pgBuilt.set(key, pending);
    pending.catch(() => pgBuilt.delete(key));
  }
  return pending;
}

/**
 * When the PostgreSQL database at `url` is empty (no table yet: freshPostgresDatabase just made it),
 * makes it a copy of the template of `kind` (dropped and created again under the same name, so the
 * caller's url and drop() still hold). Answers whether it did; a database with tables is left as is.
 */
export async function postgresTemplateIfEmpty(url: string, kind: TemplateKind): Promise<boolean> {
  // Once per database and process: two instances started on it side by side must not both copy.
  let pending = looked.get(url);
  if (!pending) {
    pending = templateIfEmpty(url, kind);
    looked.set(url, pending);
  }
  return pending;
}

const looked = new Map<string, Promise<boolean>>();

async function templateIfEmpty(url: string, kind: TemplateKind): Promise<boolean> {
  const empty = await withAdmin(url, async (c) => {
    const found = await c.query(
      "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
    );
    return (found.rows[0] as { n: number }).n === 0;
  });
  if (!empty) return false;
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^\w+$/.test(name)) throw new Error(`unexpected test database name "${name}"`);
  const admin = databaseUrl(url, 'postgres');
  const template = await postgresTemplate(admin, kind);
  await withAdmin(admin, async (c) => {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name} template ${template}`);
  });
  return true;
}

/**
 * A fresh PostgreSQL database copied from the template of `kind` (a few hundred milliseconds instead
 * of every migration and the demo seed). Without TEST_POSTGRES_URL: { ok: false } as
 * freshPostgresDatabase answers (a failure under CI=true).
 */
export async function postgresFromTemplate(label: string, kind: TemplateKind): Promise<PgSetup> {
  const base = process.env.TEST_POSTGRES_URL;
  if (!base) {
    const reason =
      'TEST_POSTGRES_URL is not set (run under scripts/with-postgres.sh to test PostgreSQL)';
    return { ok: false, reason, fail: process.env.CI === 'true' };
  }
  const template = await postgresTemplate(base, kind);
  const name = `hamlet_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(base, (admin) => admin.query(`create database ${name} template ${template}`));
  return {
    ok: true,
    url: databaseUrl(base, name),
    drop: () =>
      withAdmin(base, async (admin) => {
        await admin.query(`drop database if exists ${name} with (force)`);
      }),
  };
}
