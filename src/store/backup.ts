// Backups that are consistent while servers write, and restores into an empty database.
// SQLite: SQLite's online backup API (through better-sqlite3) copies the pages of one committed
// state; a write by another connection between steps restarts it, so every step after the first
// copies all remaining pages at once (a snapshot, in WAL mode) and a busy server cannot starve it. (A plain `cp` of a live database
// copies the main file without the WAL holding the latest commits, and pages from different
// moments: it is not a backup.) The copy is checked and turned into one self-contained file.
// PostgreSQL: `pg_dump --format=custom` (one snapshot) and `pg_restore`; the password goes to the
// tools in PGPASSWORD, never on their command line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { PgHosts } from './pg-hosts.ts';
import { createPrivateFile, makePrivate } from './private-file.ts';
/** How long a backup step waits for a lock another connection holds (a checkpoint, say). */
const BACKUP_BUSY_TIMEOUT_MS = 10_000;
/** A step of this many pages copies whatever remains, in one read transaction, however it grew. */
const ALL_PAGES = 0x7fffffff;

export type BackupResult = { bytes: number };

export function sqlitePath(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith('sqlite:')) return undefined;
  const path = databaseUrl.slice('sqlite:'.length);
  if (path === '' || path === ':memory:')
    throw new Error('An in-memory SQLite database cannot be backed up or restored');
  return path;
}

/** Copies the live SQLite database at `path` into `file` (which must not exist). */
export async function backupSqlite(path: string, file: string): Promise<BackupResult> {
  if (!existsSync(path)) throw new Error(`There is no SQLite database at "${path}"`);
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  // The copy holds every secret of the database: the owner's alone from its first byte.
  createPrivateFile(partial);
  const source = new BetterSqlite3(path, { fileMustExist: true });
  try {
    source.pragma(`busy_timeout = ${BACKUP_BUSY_TIMEOUT_MS}`);
    await source.backup(partial, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  try {
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`The copy failed its integrity check: ${String(check)}`);
      // One file, no WAL beside it: what is copied elsewhere is the whole database.
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    makePrivate(partial);
    renameSync(partial, file);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  return { bytes: statSync(file).size };
}

/** Restores the SQLite backup `file` to `path`, which must not hold a database already. */
export async function restoreSqlite(file: string, path: string): Promise<void> {
  const backup = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    hamletSchemaOrThrow(backup, file);
    if (existsSync(path) && statSync(path).size > 0) {
      const target = new BetterSqlite3(path, { readonly: true });
      const tables = target
        .prepare("select count(*) as n from sqlite_master where type = 'table'")
        .get() as { n: number };
      target.close();
      if (tables.n > 0) throw notEmpty(`sqlite:${path}`);
    }
    createPrivateFile(path);
    await backup.backup(path);
  } finally {
    backup.close();
  }
  const restored = new BetterSqlite3(path);
  try {
    restored.pragma('journal_mode = WAL');
  } finally {
    restored.close();
  }
}

function hamletSchemaOrThrow(db: BetterSqlite3.Database, file: string): void {
  const found = db
    .prepare("select 1 from sqlite_master where type = 'table' and name = 'hamlet_migrations'")
    .get();
  if (!found) throw new Error(`"${file}" is a SQLite database but not a Hamlet backup`);
}

function notEmpty(what: string): Error {
  return new Error(
    `The database ${what.startsWith('sqlite:') ? `"${what.slice(7)}"` : 'DATABASE_URL names'} is not empty: restore only into an empty database (a new SQLite path, or a PostgreSQL database just made with createdb), so that nothing is overwritten.`,
  );
}

/** A PostgreSQL client tool's invocation: the URL without its password, which goes in PGPASSWORD. */
export function pgTool(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (password) env.PGPASSWORD = password;
  return { dbname: url.toString(), env };
}

/** Whether a PostgreSQL client tool (pg_dump, pg_restore) can be run from PATH. */
export function hasTool(name: string): boolean {
  const r = spawnSync(name, ['--version'], { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

export const pgDumpArgs = (file: string) => ['--format=custom', '--no-owner', `--file=${file}`];
export const pgRestoreArgs = ['--no-owner', '--exit-on-error', '--single-transaction'];

/**
 * Runs pg_dump into `file` (written whole or not at all). A DATABASE_URL listing several hosts is
 * dumped from (and restored into) the one that takes writes.
 */
export async function backupPostgres(databaseUrl: string, file: string): Promise<BackupResult> {
  const { dbname, env } = pgTool(await new PgHosts(databaseUrl).primary());
  const partial = `${file}.partial`;
  try {
    rmSync(partial, { force: true });
    createPrivateFile(partial);
    await run('pg_dump', [...pgDumpArgs(partial), `--dbname=${dbname}`], env);
    makePrivate(partial);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  return { bytes: statSync(file).size };
}

/** Runs pg_restore of `file` into the database `databaseUrl` names, which must be empty. */
export async function restorePostgres(urlGiven: string, file: string): Promise<void> {
  const databaseUrl = await new PgHosts(urlGiven).primary();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    if (Number(rows[0]?.n) > 0) throw notEmpty(databaseUrl);
  } finally {
    await client.end();
  }
  const { dbname, env } = pgTool(databaseUrl);
  await run('pg_restore', [...pgRestoreArgs, `--dbname=${dbname}`, file], env);
}

async function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim() || 'no output'}`)),
    );
  });
}
