// A Kysely dialect over a PostgreSQL primary (found among DATABASE_URL's hosts, ./pg-pools.ts) and,
// for the replica-routing store, its hot standbys (./pg-standbys.ts). Where each statement runs:
//  - a plain read (./statement-kinds.ts) outside a transaction, on a connection that has not yet
//    needed the primary: on a standby that may take reads now, else on the primary. One that fails
//    there for want of the standby (see standbyCannot) runs again on the primary; a standby whose
//    connection failed is set aside until a poll finds it well;
//  - a transaction declared read only, or opening with transaction-local settings and then
//    reading (how search tunes the planner for one statement): on a standby, begun when its first
//    statement comes, the settings replayed there. The same failures move it to the primary,
//    settings replayed, unless it asked for an isolation level above read committed (its later
//    statements see the primary's data, as a read-committed transaction's may);
//  - everything else (writes, locks, other transactions) on the primary; a connection that sent
//    one statement there keeps it for the rest, so session state stays where it was made.
// A write made through the replica-routing store sends later reads of the tables it wrote to the
// primary until every standby has replayed it (background work of search reads back what it wrote).
import {
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { isConnectionError } from './pg-hosts.ts';
import type { Held, PrimaryPools, ServerPool } from './pg-pools.ts';
import type { Standbys } from './pg-standbys.ts';
import { isLocalSetting, isPlainRead, mentions, tablesWritten } from './statement-kinds.ts';
import type { AnySchemaDb } from './any-schema.ts';

export type Routes = {
  primary: PrimaryPools;
  /** Where plain reads may go; absent: everything runs on the primary. */
  standbys?: Standbys;
  /** Ends every pool (the primary-only and the replica-routing Kysely share them). */
  close(): Promise<void>;
};

export function routingDialect(routes: Routes): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (db: AnySchemaDb) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createDriver: () => new RoutingDriver(routes),
  };
}

const codeOf = (err: unknown) => (err as { code?: unknown } | undefined)?.code;

/**
 * Errors after which a statement meant for a standby runs on the primary instead: the standby is
 * gone, or 40001 (cancelled by a conflict with recovery), 0A000 (an unlogged table: not
 * replicated), 55000 (a function that needs the primary), 42P01 / 42703 (a table or column the
 * standby has not replayed yet: a migration just ran), 25006 (a transaction that opened by
 * reading went on to write).
 */
const ON_PRIMARY = new Set(['40001', '0A000', '55000', '42P01', '42703', '25006']);

function standbyCannot(err: unknown): boolean {
  return isConnectionError(err) || ON_PRIMARY.has(String(codeOf(err)));
}

/** Whether the standby itself failed (it takes no reads until a poll finds it well). */
function standbyGone(err: unknown): boolean {
  return isConnectionError(err) && codeOf(err) !== '25006';
}

type Transaction = {
  settings: TransactionSettings;
  /** Transaction-local settings sent before the transaction's place was chosen. */
  held: CompiledQuery[];
  on?: Held;
  wrote: Set<string>;
};

class RoutedConnection implements DatabaseConnection {
  /** The primary's connection, once a statement needed it; later statements use it too. */
  primary?: Held;
  tx?: Transaction;

  constructor(private readonly driver: RoutingDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, query);
  }

  async *streamQuery<R>(
    query: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    const held = this.tx?.on ?? (this.primary ??= await this.driver.routes.primary.acquire());
    yield* held.conn.streamQuery<R>(query, chunkSize);
  }
}

function routed(c: DatabaseConnection): RoutedConnection {
  if (!(c instanceof RoutedConnection)) throw new Error('Not a connection of this driver.');
  return c;
}

class RoutingDriver implements Driver {
  /** Tables this store wrote and when (local time), until every standby replayed it. */
  private readonly written = new Map<string, number>();

  constructor(readonly routes: Routes) {}

  async init(): Promise<void> {}

  /** Nothing is taken from a pool until a statement says where it runs. */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this);
  }

  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    routed(c).tx = { settings, held: [], wrote: new Set() };
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await this.endTransaction(routed(c), (on) => on.driver.commitTransaction(on.conn));
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await this.endTransaction(routed(c), (on) => on.driver.rollbackTransaction(on.conn));
  }

  async savepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    const on = await this.placed(routed(c));
    await on.driver.savepoint(on.conn, name, compile);
  }

  async rollbackToSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    const on = await this.placed(routed(c));
    await on.driver.rollbackToSavepoint(on.conn, name, compile);
  }

  async releaseSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    const on = await this.placed(routed(c));
    await on.driver.releaseSavepoint(on.conn, name, compile);
  }

  async releaseConnection(c: DatabaseConnection): Promise<void> {
    const r = routed(c);
    const held = r.primary;
    r.primary = undefined;
    if (held) await held.server.release(held);
  }

  async destroy(): Promise<void> {
    await this.routes.close();
  }

  async execute<R>(c: RoutedConnection, query: CompiledQuery): Promise<QueryResult<R>> {
    if (c.tx) return this.inTransaction<R>(c, c.tx, query);
    const { standbys } = this.routes;
    const read = isPlainRead(query.sql);
    if (standbys && read && !c.primary) {
      const server = standbys.pick(this.writtenBefore(query.sql));
      if (server) {
        try {
          return await once<R>(server, query);
        } catch (err) {
          if (!standbyCannot(err)) throw err;
          if (standbyGone(err)) standbys.failed(server, err);
        }
      }
    }
    const result = await this.onPrimary<R>(c, query);
    if (standbys && !read) this.wrote(tablesWritten(query.sql));
    return result;
  }

  private async inTransaction<R>(
    c: RoutedConnection,
    tx: Transaction,
    query: CompiledQuery,
  ): Promise<QueryResult<R>> {
    if (!tx.on) {
      if (isLocalSetting(query.sql)) {
        tx.held.push(query);
        return { rows: [] };
      }
      const server = this.standbyFor(tx, query);
      if (server) {
        try {
          tx.on = await server.acquire();
          await this.begin(tx.on, tx);
          return await tx.on.conn.executeQuery<R>(query);
        } catch (err) {
          if (!(await this.leaveStandby(tx, err))) throw err;
        }
      }
      await this.beginOnPrimary(c, tx);
    } else if (tx.on !== c.primary) {
      try {
        return await tx.on.conn.executeQuery<R>(query);
      } catch (err) {
        const moves = !tx.settings.isolationLevel;
        if (!(await this.leaveStandby(tx, err)) || !moves) throw err;
        await this.beginOnPrimary(c, tx);
      }
    }
    if (!isPlainRead(query.sql)) for (const t of tablesWritten(query.sql)) tx.wrote.add(t);
    return this.run<R>(tx.on!, query);
  }

  /** A standby for a transaction about to run its first statement, if it is a read one. */
  private standbyFor(tx: Transaction, query: CompiledQuery): ServerPool | undefined {
    const { standbys } = this.routes;
    if (!standbys || tx.settings.accessMode === 'read write') return undefined;
    const reads =
      tx.settings.accessMode === 'read only' || (tx.held.length > 0 && isPlainRead(query.sql));
    return reads ? standbys.pick(this.writtenBefore(query.sql)) : undefined;
  }

  /** After a failure on a standby: whether the transaction may go to the primary (it is released). */
  private async leaveStandby(tx: Transaction, err: unknown): Promise<boolean> {
    const on = tx.on;
    tx.on = undefined;
    if (on) {
      await on.driver.rollbackTransaction(on.conn).catch(() => undefined);
      await on.server.release(on);
    }
    // A transaction that declared itself read only and wrote is the caller's mistake: said as it is.
    if (!standbyCannot(err) || (codeOf(err) === '25006' && tx.settings.accessMode === 'read only'))
      return false;
    if (standbyGone(err) && on) this.routes.standbys?.failed(on.server, err);
    return true;
  }

  /** Begins the transaction on `held` (already its place: a failure is rolled back there), settings replayed. */
  private async begin(held: Held, tx: Transaction): Promise<void> {
    await held.driver.beginTransaction(held.conn, tx.settings);
    for (const setting of tx.held) await held.conn.executeQuery(setting);
  }

  private async beginOnPrimary(c: RoutedConnection, tx: Transaction): Promise<Held> {
    try {
      tx.on = c.primary ??= await this.routes.primary.acquire();
      await this.begin(tx.on, tx);
      return tx.on;
    } catch (err) {
      this.routes.primary.failed(err);
      throw err;
    }
  }

  /** Where a transaction runs, choosing the primary if no statement chose yet (savepoints). */
  private async placed(c: RoutedConnection): Promise<Held> {
    const tx = c.tx;
    if (!tx) throw new Error('A savepoint needs a transaction.');
    return tx.on ?? this.beginOnPrimary(c, tx);
  }

  private async endTransaction(c: RoutedConnection, end: (on: Held) => Promise<void>) {
    const tx = c.tx;
    c.tx = undefined;
    if (!tx?.on) return;
    try {
      await end(tx.on);
    } catch (err) {
      if (tx.on === c.primary) this.routes.primary.failed(err);
      throw err;
    } finally {
      if (tx.on !== c.primary) await tx.on.server.release(tx.on);
    }
    if (this.routes.standbys && tx.on === c.primary && tx.wrote.size) this.wrote([...tx.wrote]);
  }

  private async onPrimary<R>(c: RoutedConnection, query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      c.primary ??= await this.routes.primary.acquire();
    } catch (err) {
      this.routes.primary.failed(err);
      throw err;
    }
    return this.run<R>(c.primary, query);
  }

  private async run<R>(held: Held, query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await held.conn.executeQuery<R>(query);
    } catch (err) {
      this.routes.primary.failed(err);
      throw err;
    }
  }

  private wrote(tables: string[]): void {
    const now = performance.now();
    for (const table of tables) {
      // Bounded: once full, a table not listed yet counts as every table ('*').
      const t = this.written.has(table) || this.written.size < 1_000 ? table : '*';
      this.written.delete(t);
      this.written.set(t, now);
    }
  }

  /** The latest write (local time) to a table this statement reads, not yet replayed everywhere. */
  private writtenBefore(sql: string): number {
    if (this.written.size === 0) return -Infinity;
    const everywhere = this.routes.standbys!.caughtUpEverywhere();
    let after = -Infinity;
    for (const [table, at] of this.written) {
      if (at <= everywhere) this.written.delete(table);
      else if (at > after && mentions(sql, table)) after = at;
    }
    return after;
  }
}

/** One statement on a standby, on a connection of its own. */
async function once<R>(server: ServerPool, query: CompiledQuery): Promise<QueryResult<R>> {
  const held = await server.acquire();
  try {
    return await held.conn.executeQuery<R>(query);
  } finally {
    await server.release(held);
  }
}
