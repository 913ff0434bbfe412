// What code beside the store may know of a file-backed SQLite database that openDatabase opened:
// its file (another connection of the same process may open it, read-only), whether the store's
// one connection has a transaction open (rows another connection cannot see yet), and work to
// finish before that connection closes. An in-memory database has no such entry: nothing else can
// open it. The work is done when the Kysely instance is destroyed (Store.close()), awaited, before
// the connection closes, so the store's connection is the file's last (it checkpoints the WAL).
import type { DatabaseConnection, Dialect, Driver, Kysely, TransactionSettings } from 'kysely';
import type { TransactionState } from './sqlite-lock.ts';

export type SqliteFile = {
  /** The database file's absolute path. */
  readonly path: string;
  /** The store's connection: `inTransaction` while a transaction of it is open. */
  readonly connection: TransactionState;
  /** Runs `close` when the database closes, awaited before its connection closes (once). */
  beforeClose(close: () => Promise<void>): void;
};

const files = new WeakMap<Kysely<any>, SqliteFile>();

/** The file behind this Kysely instance; undefined for PostgreSQL and in-memory SQLite. */
export function sqliteFileOf(db: Kysely<any>): SqliteFile | undefined {
  return files.get(db);
}

/** The work to do before a driver's connection closes, and the dialect that does it then. */
export class CloseHooks {
  private readonly hooks: (() => Promise<void>)[] = [];
  private ran = false;

  /** A hook added once the database closed runs at once (what it would close must not start). */
  add(close: () => Promise<void>): void {
    if (this.ran) close().catch(() => undefined);
    else this.hooks.push(close);
  }

  /** Every hook, each once; one failing does not keep the others (or the close) from running. */
  async run(): Promise<void> {
    this.ran = true;
    const hooks = this.hooks.splice(0);
    await Promise.allSettled(hooks.map((h) => h()));
  }

  wrap(dialect: Dialect): Dialect {
    return {
      createAdapter: () => dialect.createAdapter(),
      createIntrospector: (db: Kysely<any>) => dialect.createIntrospector(db),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createDriver: () => new ClosingDriver(dialect.createDriver(), this),
    };
  }
}

/** Registers the file behind `db` (its dialect wrapped by `hooks`). */
export function registerSqliteFile(
  db: Kysely<any>,
  path: string,
  connection: TransactionState,
  hooks: CloseHooks,
): void {
  files.set(db, { path, connection, beforeClose: (close) => hooks.add(close) });
}

type Compile = Parameters<NonNullable<Driver['savepoint']>>[2];

/** The driver as it is, but for destroy(): the hooks first. */
class ClosingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly hooks: CloseHooks,
  ) {}

  async init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }
  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(c, settings);
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(c);
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(c);
  }
  async savepoint(c: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    await this.inner.savepoint!(c, name, compile);
  }
  async rollbackToSavepoint(c: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    await this.inner.rollbackToSavepoint!(c, name, compile);
  }
  async releaseSavepoint(c: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    await this.inner.releaseSavepoint!(c, name, compile);
  }
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(c);
  }
  async destroy(): Promise<void> {
    await this.hooks.run();
    await this.inner.destroy();
  }
}
