// A PostgreSQL primary and a hot standby of it on loopback, as an operator makes them: initdb for
// the primary, `pg_basebackup -R` for the standby (streaming replication), both under one temporary
// directory of their own (run as the postgres user when root, ./pg-server.ts). Each server logs
// every statement with its application_name, so a test can say which server ran what.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../helpers/serve.ts';
import { pgWorkspace, postgresBin } from './pg-server.ts';

export type PgNode = {
  port: number;
  /** postgres://… of the database Hamlet uses on this server. */
  url: string;
  /** One query on a fresh connection to Hamlet's database here. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  /** `pg_ctl stop -m immediate`: the server is gone at once, as in a crash. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** `pg_ctl promote`: a standby becomes a primary (resolves once it takes writes). */
  promote(): Promise<void>;
  /** Statements logged since the last call: one `application_name|statement` per entry. */
  statements(): string[];
};

export type Replicated = {
  primary: PgNode;
  standby: PgNode;
  /** `postgres://…@primary,standby/hamlet`: both hosts, as DATABASE_URL may list them. */
  bothUrl: string;
  stop(): Promise<void>;
};

/** Why the replica tests cannot run here, if they cannot. */
export function replicationMissing(): string | undefined {
  const bin = postgresBin();
  if (!bin) return 'PostgreSQL is not installed (/usr/lib/postgresql/*/bin)';
  try {
    readFileSync(join(bin, 'pg_basebackup'));
  } catch {
    return `pg_basebackup is not installed (${bin})`;
  }
  return undefined;
}

/**
 * Starts the primary and its standby (with `standbySettings`, e.g. recovery_min_apply_delay:
 * `name=value` without spaces or shell characters). `synchronous`: a commit on the primary waits
 * until the standby has it (synchronous_standby_names, set once the standby streams).
 */
export async function startReplicated(
  options: { standbySettings?: string[]; synchronous?: boolean } = {},
): Promise<Replicated> {
  const { dir, asPg } = await pgWorkspace('hamlet-replica-pg-');
  const nodes: PgNode[] = [];
  try {
    const [primaryPort, standbyPort] = [await freePort(), await freePort()];
    const primary = node('primary', primaryPort, []);
    await asPg('initdb', [
      '-D',
      join(dir, 'primary'),
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-sync',
    ]);
    await primary.start();
    nodes.push(primary);
    await queryOn(primaryPort, 'postgres', 'create database hamlet');
    await asPg('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres'],
      ...['-D', join(dir, 'standby'), '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    ]);
    const standby = node('standby', standbyPort, options.standbySettings ?? []);
    await standby.start();
    nodes.push(standby);
    if (options.synchronous) {
      await queryOn(primaryPort, 'postgres', `alter system set synchronous_standby_names = '*'`);
      await queryOn(primaryPort, 'postgres', 'select pg_reload_conf()');
      for (let waited = 0; ; waited += 50) {
        const rows = await queryOn<{ n: string }>(
          primaryPort,
          'postgres',
          `select count(*) as n from pg_stat_replication where sync_state = 'sync'`,
        );
        if (Number(rows[0]!.n) > 0) break;
        if (waited > 10_000) throw new Error('the standby did not become synchronous in 10 s');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return {
      primary,
      standby,
      bothUrl: `postgres://postgres@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/hamlet`,
      stop: async () => {
        await Promise.all(nodes.map(async (n) => n.kill()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await Promise.all(nodes.map(async (n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  function node(name: string, port: number, settings: string[]): PgNode {
    const data = join(dir, name);
    const log = join(dir, `${name}.log`);
    const options = [
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
      '-c log_statement=all -c log_line_prefix=@%a@',
      ...settings.map((s) => `-c ${s}`),
    ].join(' ');
    const ctl = async (...args: string[]) => asPg('pg_ctl', ['-D', data, ...args]);
    let read = 0;
    return {
      port,
      url: `postgres://postgres@127.0.0.1:${port}/hamlet`,
      query: async (text, values) => queryOn(port, 'hamlet', text, values),
      kill: async () => {
        await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      },
      start: async () => {
        await ctl('-o', options, '-l', log, '-w', 'start');
      },
      promote: async () => {
        await ctl('-w', 'promote');
      },
      statements: () => {
        const text = readFileSync(log, 'utf8');
        const fresh = text.slice(read);
        read = text.length;
        return [...fresh.matchAll(/^@([^@\n]*)@LOG:\s+(?:statement|execute [^:]*):\s+(.*)$/gm)].map(
          (m) => `${m[1]}|${m[2]}`,
        );
      },
    };
  }
}

async function queryOn<R extends pg.QueryResultRow>(
  port: number,
  database: string,
  text: string,
  values?: unknown[],
): Promise<R[]> {
  const client = new pg.Client({
    connectionString: `postgres://postgres@127.0.0.1:${port}/${database}`,
    application_name: 'test',
  });
  client.on('error', () => undefined); // the server may go away under it: the query says so
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}
