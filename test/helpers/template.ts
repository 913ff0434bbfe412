// Template databases for tests: migrated once (and, for 'demo', seeded with the demo once) per
// source tree, then copied per test instead of running every migration and the demo seed each time.
//
// How a test uses them:
//  - `startTestHamlet(env, { demo })` (test/app/helpers.ts) already does: a SQLite file that does not
//    exist yet starts as a copy of the template ('demo' with `demo: true`, else 'migrated'); pass
//    `{ template: false }` to run the real migrations and seed instead.
//  - A SQLite file of your own: `await sqliteFromTemplate(path, 'migrated' | 'demo')`.
//  - PostgreSQL: `await postgresFromTemplate(label, 'migrated' | 'demo')` gives a fresh database
//    (CREATE DATABASE … TEMPLATE …) with the same { ok, url, drop } answer as freshPostgresDatabase.
// The real migration path stays covered where it is the subject: the store contract tests, `serve
// --demo` / `seed demo` (test/e2e/demo-start.test.ts, test/import/cli.test.ts) and whatever opens a
// database with openStore/openDatabase directly.
//
// A SQLite template is a file under <tmpdir>/hamlet-test-templates named by a hash of src/ and
// package-lock.json (so any change to migrations, the demo or the code that writes them builds a new
// one) and rebuilt when older than an hour (demo rows carry their build time; the edit window is a
// day). Concurrent test processes build it once: the builder holds <name>.lock (its pid inside; a
// lock whose process is gone is taken over) and renames the finished file into place. A PostgreSQL
// template is one database per cluster, built under an advisory lock.
import { createHash, randomBytes } from 'node:crypto';
import {
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.ts';
import { ensureDemoCommunity } from '../../src/demo/demo.ts';
import { openHamlet } from '../../src/main.ts';
import type { PgSetup } from '../store/pg-database.ts';
import { waitFor } from './wait.ts';

export type TemplateKind = 'migrated' | 'demo';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = process.env.HAMLET_TEST_TEMPLATE_DIR ?? join(tmpdir(), 'hamlet-test-templates');
const MAX_AGE_MS = 60 * 60 * 1000;

let sourceHash: string | undefined;
/** A hash of every file under src/ (path and content) and package-lock.json. */
export function templateHash(): string {
  if (sourceHash) return sourceHash;
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith('.test.ts')) hash.update(`${path}\0`).update(readFileSync(path));
    }
  };
  walk(join(ROOT, 'src'));
  hash.update(readFileSync(join(ROOT, 'package-lock.json')));
  return (sourceHash = hash.digest('hex').slice(0, 16));
}

/** Migrates `databaseUrl` and, for 'demo', seeds the demo, as `hamlet seed demo` does. */
async function build(databaseUrl: string, kind: TemplateKind): Promise<void> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' });
  const opened = await openHamlet(config, { poolSize: 2 });
  try {
    if (kind === 'demo') await ensureDemoCommunity(opened.store, opened.services);
  } finally {
    await opened.close();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function fresh(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < MAX_AGE_MS;
  } catch {
    return false;
  }
}

/** Takes `lock` (true), or answers false while a live process holds it; a dead holder's is taken. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = Number(readFileSync(lock, 'utf8').trim() || 0);
  // An empty file is a holder between openSync and writeSync; give it a moment, not the lock.
  if (!holder || alive(holder)) return false;
  rmSync(lock, { force: true });
  return tryLock(lock);
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
  mkdirSync(CACHE, { recursive: true });
  const path = join(CACHE, `${templateHash()}-${kind}.db`);
  const lock = `${path}.lock`;
  let locked = false;
  await waitFor(() => fresh(path) || (locked = tryLock(lock)), {
    timeoutMs: 180_000,
    message: `the ${kind} template at ${path} (held by ${lock})`,
  });
  if (!locked) return path;
  try {
    if (fresh(path)) return path; // built by another process between our two looks
    const partial = `${path}.${process.pid}.tmp`;
    rmSync(partial, { force: true });
    await build(`sqlite:${partial}`, kind);
    // Closing the last connection checkpoints the WAL into the file, so the file alone is the copy.
    new BetterSqlite3(partial).close();
    if (existsSync(`${partial}-wal`)) throw new Error(`the ${kind} template kept its WAL`);
    renameSync(partial, path);
    return path;
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Writes a copy of the SQLite template of `kind` at `path` (its folder must exist). */
export async function sqliteFromTemplate(path: string, kind: TemplateKind): Promise<void> {
  copyFileSync(await sqliteTemplate(kind), path, constants.COPYFILE_FICLONE);
}

/** Runs `fn` with an admin connection to TEST_POSTGRES_URL's server. */
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

const pgBuilt = new Map<TemplateKind, Promise<string>>();

/** The name of the PostgreSQL template database of `kind` on TEST_POSTGRES_URL, built once. */
async function postgresTemplate(base: string, kind: TemplateKind): Promise<string> {
  let pending = pgBuilt.get(kind);
  if (!pending) {
    pending = withAdmin(base, async (admin) => {
      const name = `hamlet_template_${kind}_${templateHash()}`;
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
    pgBuilt.set(kind, pending);
    pending.catch(() => pgBuilt.delete(kind));
  }
  return pending;
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
