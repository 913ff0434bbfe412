// A throwaway PostgreSQL server of the fault suite's own (initdb and pg_ctl from
// /usr/lib/postgresql/*/bin, as the postgres user when run as root, as scripts/with-postgres.sh
// does), so the suite may restart it and terminate its backends without disturbing anyone else's.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../helpers/serve.ts';

const run = promisify(execFile);

export type PgServer = {
  /** postgres://… of the database Hamlet uses. */
  url: string;
  /** `pg_ctl restart -m fast`: resolves once the server accepts connections again. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, `ms` without a server, then start: resolves once it accepts again. */
  pause(ms: number): Promise<void>;
  /** pg_terminate_backend on every backend of the database but the caller's; how many ended. */
  terminateBackends(): Promise<number>;
  /** One query on a fresh connection to Hamlet's database. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  stop(): Promise<void>;
};

/** The newest PostgreSQL bin directory installed, if any. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? join(root, versions.at(-1)!, 'bin') : undefined;
}

/** Runs a PostgreSQL program (as the postgres user when root); what it printed. */
export type AsPg = (cmd: string, args: string[]) => Promise<{ stdout: string; stderr: string }>;

/** A temporary directory the postgres user owns, and how to run PostgreSQL's programs there. */
export async function pgWorkspace(prefix: string): Promise<{ dir: string; asPg: AsPg }> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/*/bin)');
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    chownSync(dir, Number(stdout.trim()), -1);
  }
  const asPg: AsPg = (cmd, args) =>
    root
      ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args])
      : run(join(bin, cmd), args);
  return { dir, asPg };
}

export async function startPgServer(): Promise<PgServer> {
  const { dir, asPg } = await pgWorkspace('hamlet-fault-pg-');
  const data = join(dir, 'data');
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const ctl = (...args: string[]) =>
    asPg('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), ...args]);
  try {
    await asPg('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    await ctl('-w', 'start');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const base = `postgres://postgres@127.0.0.1:${port}`;
  const queryOn = async <R extends pg.QueryResultRow>(
    database: string,
    text: string,
    values?: unknown[],
  ) => {
    const client = new pg.Client({ connectionString: `${base}/${database}` });
    client.on('error', () => undefined); // the server may go away under it: the query says so
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  await queryOn('postgres', 'create database hamlet');
  const query = async <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    queryOn<R>('hamlet', text, values);
  return {
    url: `${base}/hamlet`,
    restart: async () => {
      await ctl('-w', '-m', 'fast', 'restart');
    },
    pause: async (ms: number) => {
      await ctl('-w', '-m', 'fast', 'stop');
      await new Promise((r) => setTimeout(r, ms));
      await ctl('-w', 'start');
    },
    terminateBackends: async () =>
      (
        await query<{ n: string }>(
          `select count(pg_terminate_backend(pid)) as n from pg_stat_activity
            where datname = 'hamlet' and pid <> pg_backend_pid()`,
        )
      ).reduce((n, r) => n + Number(r.n), 0),
    query,
    stop: async () => {
      await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
