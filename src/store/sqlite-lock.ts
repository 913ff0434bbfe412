// A Kysely dialect wrapper for SQLite that waits for the file's write lock without blocking the event
// loop. better-sqlite3 is synchronous: a busy_timeout makes every statement that finds the lock held
// by another process (an import, a second instance, a shell) sleep inside the event loop. So SQLite's
// busy_timeout is 0 (SQLITE_LOCK_WAIT.busyTimeoutMs; even a few ms of SQLite's sleep-and-poll cost
// tens of ms on a loaded machine) and this wrapper does the waiting asynchronously: a statement that
// failed with SQLITE_BUSY while no transaction is open (a transaction's BEGIN IMMEDIATE, or a single
// statement in autocommit) gave up before it changed anything, so it is run again after a short
// sleep with backoff, during which the process's one connection is handed back so reads and other
// requests go on. A statement inside an open transaction is never run again: transactions take the
// lock up front with BEGIN IMMEDIATE, so their statements do not wait for it.
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { AnySchemaDb } from './any-schema.ts';

export type LockWait = {
  /** SQLite's own busy_timeout: how long one attempt may block the event loop. */
  busyTimeoutMs: number;
  /** The first sleep between attempts; each next one doubles, up to maxDelayMs (with jitter). */
  firstDelayMs: number;
  maxDelayMs: number;
  /** After this long the statement fails with SQLite's SQLITE_BUSY error. */
  deadlineMs: number;
};

/**
 * A waiting writer tries again at least every busyTimeoutMs + maxDelayMs (plus timer lateness): a
 * process that writes in many transactions (the mail importer) leaves the lock free longer than that
 * between them (lockGapMs), so every waiting writer gets its turn.
 */
export const SQLITE_LOCK_WAIT: LockWait = {
  busyTimeoutMs: 0,
  firstDelayMs: 1,
  maxDelayMs: 10,
  deadlineMs: 30_000,
};

/** How long a bulk writer pauses between its transactions: a waiter's longest stretch, twice over. */
export function lockGapMs(wait: LockWait = SQLITE_LOCK_WAIT): number {
  return wait.busyTimeoutMs + 2 * wait.maxDelayMs + 5;
}

/** The part of a better-sqlite3 Database this wrapper reads: whether a transaction is open. */
export type TransactionState = { readonly inTransaction: boolean };

export function waitForLock(
  dialect: Dialect,
  database: TransactionState,
  wait: LockWait = SQLITE_LOCK_WAIT,
): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db: AnySchemaDb) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new LockWaitingDriver(dialect.createDriver(), database, wait),
  };
}

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, _RECOVERY, _TIMEOUT). */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * A statement whose SQL starts with this comment is run once, never waited for: readiness's write
 * probe, for which a lock held by another writer already proves the file takes writes.
 */
export const NO_LOCK_WAIT = '/* hamlet:no-lock-wait */ ';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class LockWaitingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly driver: LockWaitingDriver,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (query.sql.startsWith(NO_LOCK_WAIT)) return this.inner.executeQuery<R>(query);
    return this.driver.untilLocked(this.inner, () => this.inner.executeQuery<R>(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * The SQLite driver has one connection behind a mutex; while a statement sleeps before its next
 * attempt, the mutex is released and taken again, so nothing else in the process waits for it.
 */
class LockWaitingDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, LockWaitingConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly database: TransactionState,
    private readonly wait: LockWait,
  ) {}

  /** Runs `attempt` until it does not fail with SQLITE_BUSY outside a transaction, or the deadline. */
  async untilLocked<R>(connection: DatabaseConnection, attempt: () => Promise<R>): Promise<R> {
    const deadline = Date.now() + this.wait.deadlineMs;
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (err) {
        if (!isBusy(err) || this.database.inTransaction || Date.now() >= deadline) throw err;
      }
      const backoff = Math.min(this.wait.maxDelayMs, this.wait.firstDelayMs * 2 ** tries);
      await this.inner.releaseConnection(connection);
      try {
        await sleep(backoff * (0.5 + Math.random() / 2));
      } finally {
        // The SQLite driver hands out its one connection again: the same object as `connection`.
        await this.inner.acquireConnection();
      }
    }
  }

  private unwrap(c: DatabaseConnection): DatabaseConnection {
    return c instanceof LockWaitingConnection ? c.inner : c;
  }

  async init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.inner.acquireConnection();
    let c = this.wrapped.get(inner);
    if (!c) this.wrapped.set(inner, (c = new LockWaitingConnection(inner, this)));
    return c;
  }
  /** BEGIN IMMEDIATE: the write lock is taken (or waited for) before any statement of the transaction. */
  async beginTransaction(c: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const inner = this.unwrap(c);
    await this.untilLocked(inner, () => inner.executeQuery(CompiledQuery.raw('begin immediate')));
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(this.unwrap(c));
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(this.unwrap(c));
  }
  async savepoint(
    c: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['savepoint']>>[2],
  ): Promise<void> {
    await this.inner.savepoint!(this.unwrap(c), name, compile);
  }
  async rollbackToSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2],
  ): Promise<void> {
    await this.inner.rollbackToSavepoint!(this.unwrap(c), name, compile);
  }
  async releaseSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2],
  ): Promise<void> {
    await this.inner.releaseSavepoint!(this.unwrap(c), name, compile);
  }
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.unwrap(c));
  }
  async destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
