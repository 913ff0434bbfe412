// What code beside the store may know of a file-backed SQLite database that openDatabase opened:
// its file (another connection of the same process may open it, read-only), whether the store's
// one connection has a transaction open (rows another connection cannot see yet), and work to
// finish before that connection closes. An in-memory database has no such entry: nothing else can
// open it. The work is done when the Kysely instance is destroyed (Store.close()), awaited, before
// the connection closes, so the store's connection is the file's last (it checkpoints the WAL).
// Any SQLite connection, in memory too, can have an extension loaded into it (search's ranking).
import type { Dialect } from 'kysely';
import type { TransactionState } from './sqlite-lock.ts';
import type { AnySchemaDb } from './any-schema.ts';

export type SqliteFile = {
  /** The database file's absolute path. */
  readonly path: string;
  /** The store's connection: `inTransaction` while a transaction of it is open. */
  readonly connection: TransactionState;
  /** Runs `close` when the database closes, awaited before its connection closes (once). */
  beforeClose(close: () => Promise<void>): void;
};

const files = new WeakMap<AnySchemaDb, SqliteFile>();

/** What code beside the store may do with any SQLite connection openDatabase opened, file or memory. */
export type SqliteConnection = {
  /** Loads a SQLite extension (a shared library) into the connection. */
  loadExtension(path: string, entryPoint?: string): unknown;
};

const connections = new WeakMap<AnySchemaDb, SqliteConnection>();

/** The connection behind this Kysely instance; undefined for PostgreSQL. */
export function sqliteConnectionOf(db: AnySchemaDb): SqliteConnection | undefined {
  return connections.get(db);
}

/** Registers the connection behind `db` (every SQLite database openDatabase opens). */
export function registerSqliteConnection(db: AnySchemaDb, connection: SqliteConnection): void {
  connections.set(db, connection);
}

/** The file behind this Kysely instance; undefined for PostgreSQL and in-memory SQLite. */
export function sqliteFileOf(db: AnySchemaDb): SqliteFile | undefined {
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

  /** The dialect as it is, but for its driver's destroy(): the hooks first. */
  wrap(dialect: Dialect): Dialect {
    return {
      createAdapter: () => dialect.createAdapter(),
      createIntrospector: (db: AnySchemaDb) => dialect.createIntrospector(db),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createDriver: () => {
        // Only destroy() changes: a wrapper of every method would add promises to every statement.
        const driver = dialect.createDriver();
        const destroy = driver.destroy.bind(driver);
        driver.destroy = async () => {
          await this.run();
          await destroy();
        };
        return driver;
      },
    };
  }
}

/** Registers the file behind `db` (its dialect wrapped by `hooks`). */
export function registerSqliteFile(
  db: AnySchemaDb,
  path: string,
  connection: TransactionState,
  hooks: CloseHooks,
): void {
  files.set(db, { path, connection, beforeClose: (close) => hooks.add(close) });
}
