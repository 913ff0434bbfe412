// openDatabase(databaseUrl): the only place that builds a database connection. Only the wiring root
// (src/main.ts), the CLI and tests call it; everything else receives the Store (and search its index).
// PostgreSQL with several hosts, or with standbys for reads, runs over ./pg-routing.ts.
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { createPrivateFile } from './private-file.ts';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.ts';
import type { Dialect, Store } from './repositories.ts';
import { KyselyStore } from './kysely/store.ts';
import { guardText } from './text-guard.ts';
import { SQLITE_LOCK_WAIT, waitForLock } from './sqlite-lock.ts';
import { reusingStatements } from './sqlite-statements.ts';
import { CloseHooks, registerSqliteConnection, registerSqliteFile } from './sqlite-file.ts';
import { isCurrent, SchemaMismatchError } from './schema-version.ts';
import { hostOf } from '../config/pg-urls.ts';
import { PgHosts } from './pg-hosts.ts';
import { observePoolErrors, PrimaryPools, ServerPool } from './pg-pools.ts';
import { routingDialect } from './pg-routing.ts';
import { patientPool } from './pg-patient.ts';
import { lsnOf, Standbys, type StandbyState } from './pg-standbys.ts';
import { openPgChannel } from './pg-channel.ts';
import { RecentWriters, WRITERS_CHANNEL } from './recent-writers.ts';

export type OpenOptions = {
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /** Told which migrations were applied when migrating (none: the schema was current). */
  onMigrated?: (applied: string[]) => void;
  /**
   * Without migrating: refuse a database whose schema is not this version's (SchemaMismatchError,
   * saying which command to run). Every command but `serve` and `migrate` opens the database so.
   */
  requireCurrentSchema?: boolean;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /**
   * PostgreSQL: how long a query waits for a connection (a new one, or a free one of a full pool)
   * before it fails (default 5000 ms), so an unreachable database fails requests instead of
   * holding them.
   */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL: told when a connection fails outside any query (the server restarted, the backend
   * was terminated). The connection is dropped and the next query opens a new one; nothing throws.
   */
  onConnectionError?: (err: Error) => void;
  /**
   * SQLite's synchronous level under WAL (default NORMAL). NORMAL: a commit survives the process
   * being killed, the last commits may be lost on power loss or an OS crash. FULL / EXTRA: a commit
   * is on disk before it is acknowledged (survives power loss), at the cost of an fsync per commit.
   * OFF: no fsync at all (a crash of the machine may corrupt the database); for throwaway data.
   */
  sqliteSynchronous?: SqliteSynchronous;
  /** PostgreSQL hot standbys that take plain reads of the replica-routing store (OpenedDatabase.replicas). */
  replicas?: ReplicaOptions;
};

export type ReplicaOptions = {
  /** One URL per standby (src/store/pg-hosts.ts urlList). */
  urls: string[];
  /** A standby further behind the primary than this takes no reads. */
  maxLagMs: number;
  /** How often replay positions are polled (default 200 ms). */
  pollMs?: number;
  /** Told when a standby becomes ready, lagging or down, by `host:port`. */
  onState?: (host: string, state: StandbyState, why: string) => void;
  /** Told about a problem of the channel that shares recent writers between instances. */
  onProblem?: (problem: string) => void;
};

export type SqliteSynchronous = 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA';

/** A PostgreSQL pool's connections: all of them, the idle ones, and the queries waiting for one. */
export type PoolStats = { total: number; idle: number; waiting: number };

/** The opened database: the Store, and the Kysely instance for the search index built beside it. */
export type OpenedDatabase = {
  store: Store;
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: the pool's state now (for metrics). */
  poolStats?: () => PoolStats;
  /**
   * With OpenOptions.replicas: a Store and Kysely instance over the same data whose plain reads go
   * to a standby that may take them (./pg-routing.ts), and who wrote lately (whose reads must not).
   */
  replicas?: { store: Store; db: Kysely<Database>; writers: RecentWriters; standbys: Standbys };
};

export async function openDatabase(
  databaseUrl: string,
  options: OpenOptions = {},
): Promise<OpenedDatabase> {
  const opened = databaseUrl.startsWith('sqlite:')
    ? openSqlite(databaseUrl.slice('sqlite:'.length), options.sqliteSynchronous ?? 'NORMAL')
    : /^postgres(ql)?:\/\//.test(databaseUrl)
      ? openPostgres(databaseUrl, options)
      : undefined;
  if (!opened) throw new Error('DATABASE_URL must be "sqlite:<path>" or "postgres://…"');
  try {
    await opened.store.ping();
    if (options.migrate ?? true) {
      const applied = await opened.store.migrate();
      options.onMigrated?.(applied);
    } else if (options.requireCurrentSchema) {
      const state = await opened.store.schemaState();
      if (!isCurrent(state)) throw new SchemaMismatchError(state);
    }
  } catch (err) {
    await opened.store.close().catch(() => undefined);
    throw err;
  }
  // Polled from now on: a standby takes reads once it replayed the schema just made.
  opened.replicas?.standbys.start();
  return opened;
}

/** The Store alone, for callers that do not search (the CLI, most tests). */
export async function openStore(databaseUrl: string, options: OpenOptions = {}): Promise<Store> {
  return (await openDatabase(databaseUrl, options)).store;
}

/**
 * Why a SQLite file could not be opened, in words that say what to fix: SQLite's own "unable to
 * open database file" does not say that the file, or the folder its -wal and -shm go in, is
 * read-only to this user.
 */
function whyNotOpened(path: string, err: unknown): string {
  const reason = err instanceof Error ? err.message : String(err);
  const file = resolve(path);
  const writable = (p: string) => {
    try {
      accessSync(p, constants.W_OK);
      return true;
    } catch {
      return !existsSync(p);
    }
  };
  if (!writable(file))
    return `the file is read-only to this user (${reason}); make it writable by the user running Hamlet, or restore it to a writable place`;
  if (!writable(dirname(file)))
    return `its folder ${dirname(file)} is read-only to this user (${reason}): SQLite writes the -wal and -shm files beside the database, so the folder must be writable by the user running Hamlet`;
  return reason;
}

function openSqlite(path: string, synchronous: SqliteSynchronous): OpenedDatabase {
  const memory = path === ':memory:' || path === '';
  let database: BetterSqlite3.Database;
  try {
    if (!memory) {
      mkdirSync(dirname(resolve(path)), { recursive: true });
      createPrivateFile(path);
    }
    database = new BetterSqlite3(memory ? ':memory:' : path);
    // WAL lets readers run beside the one writer (it makes the -wal and -shm files beside it).
    database.pragma('journal_mode = WAL');
  } catch (err) {
    throw new Error(`Cannot open SQLite database "${path}": ${whyNotOpened(path, err)}`, {
      cause: err,
    });
  }
  // Foreign keys are off by default in SQLite. The
  // synchronous level is what a commit survives (OpenOptions.sqliteSynchronous). A write that finds
  // the lock held by another process blocks the event loop for busy_timeout only (a few ms), then
  // waits for it asynchronously (./sqlite-lock.ts).
  database.pragma(`synchronous = ${synchronous}`);
  database.pragma('foreign_keys = ON');
  database.pragma(`busy_timeout = ${SQLITE_LOCK_WAIT.busyTimeoutMs}`);
  const dialect = waitForLock(
    new SqliteDialect({ database: reusingStatements(database) }),
    database,
  );
  // A file may be read by other connections of this process too (./sqlite-file.ts), closed first.
  const hooks = new CloseHooks();
  const db = new Kysely<Database>({ dialect: guardText(hooks.wrap(dialect)) });
  registerSqliteConnection(db, database);
  if (!memory) registerSqliteFile(db, resolve(path), database, hooks);
  return { store: new KyselyStore(db, 'sqlite'), db, dialect: 'sqlite' };
}

function openPostgres(url: string, options: OpenOptions): OpenedDatabase {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const makePool: MakePool = (u, name, timeoutMs, onError) => {
    const pool = new pg.Pool({
      connectionString: u,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: timeoutMs,
      // A connection the network silently dropped is found out instead of waited on forever.
      keepAlive: true,
      application_name: name,
      // The planner costs ts_rank like one operator, so on big matches it judged passing every
      // match from parallel workers dearer than a serial scan; a lower transfer cost restores the
      // parallel scan of search's ranking statement (~20% off it at 100k posts on 2 cores). Set
      // for the session: no statement of its own per search.
      options: '-c parallel_tuple_cost=0.01',
    });
    observePoolErrors(pool, onError ?? (() => undefined));
    return pool;
  };
  const hosts = new PgHosts(url, connectTimeoutMs);
  if (!hosts.multiple && !options.replicas?.urls.length) {
    const pool = makePool(url, 'hamlet', connectTimeoutMs, options.onConnectionError);
    const db = new Kysely<Database>({
      dialect: guardText(new PostgresDialect({ pool: patientPool(pool, connectTimeoutMs) })),
    });
    const poolStats = () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    });
    return { store: new KyselyStore(db, 'postgres'), db, dialect: 'postgres', poolStats };
  }
  return openRouted(url, hosts, options, makePool);
}

type MakePool = (
  url: string,
  name: string,
  timeoutMs: number,
  onError?: (err: Error) => void,
) => pg.Pool;

/** PostgreSQL over ./pg-routing.ts: DATABASE_URL's primary among its hosts, and any standbys. */
function openRouted(
  url: string,
  hosts: PgHosts,
  options: OpenOptions,
  makePool: MakePool,
): OpenedDatabase {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const primary = new PrimaryPools(
    hosts,
    (u) => makePool(u, 'hamlet', connectTimeoutMs, options.onConnectionError),
    connectTimeoutMs,
  );
  const closing: Array<() => Promise<void>> = [];
  let closed: Promise<void> | undefined;
  const routes = {
    primary,
    close: () =>
      (closed ??= (async () => {
        for (const close of closing) await close();
        await primary.end();
      })()),
  };
  const db = new Kysely<Database>({ dialect: guardText(routingDialect(routes)) });
  const opened: OpenedDatabase = {
    store: new KyselyStore(db, 'postgres'),
    db,
    dialect: 'postgres',
    poolStats: () => primary.stats(),
  };
  const replicas = options.replicas;
  if (!replicas?.urls.length) return opened;
  // A standby that cannot be reached is given up quickly: its reads go to the primary.
  const standbyTimeoutMs = Math.min(connectTimeoutMs, 2_000);
  const channel = openPgChannel(url, WRITERS_CHANNEL, {
    onProblem: replicas.onProblem,
    connectTimeoutMs,
  });
  const standbys = new Standbys(
    replicas.urls.map((u) => new ServerPool(u, makePool(u, 'hamlet replica', standbyTimeoutMs))),
    async () => {
      const r = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(db);
      return lsnOf(r.rows[0]?.lsn);
    },
    {
      maxLagMs: replicas.maxLagMs,
      pollMs: replicas.pollMs,
      mayRead: () => channel.state() === 'listening',
      onState: (server, state, why) => replicas.onState?.(hostOf(server.url), state, why),
    },
  );
  const writers = new RecentWriters(standbys, db, channel);
  closing.push(
    async () => channel.close(),
    async () => standbys.stop(),
  );
  void writers.listen().catch((err: unknown) => replicas.onProblem?.(String(err)));
  const readDb = new Kysely<Database>({
    dialect: guardText(routingDialect({ ...routes, standbys })),
  });
  opened.replicas = { store: new KyselyStore(readDb, 'postgres'), db: readDb, writers, standbys };
  return opened;
}
