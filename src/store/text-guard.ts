// A Kysely dialect wrapper that refuses every query whose parameters carry the NUL character, on
// both engines alike (PostgreSQL rejects NUL in text with an error, SQLite stores it): the query
// fails with InvalidText before it is sent, whatever path the string took to get there.
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { InvalidText } from './errors.ts';
import type { AnySchemaDb } from './any-schema.ts';

export function guardText(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db: AnySchemaDb) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new GuardedDriver(dialect.createDriver()),
  };
}

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  return false;
}

function check(query: CompiledQuery): void {
  if (query.parameters.some(hasNul)) throw new InvalidText();
}

class GuardedConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    check(query);
    return this.inner.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    check(query);
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** Hands out guarded connections (one per inner connection) and gives the inner driver back its own. */
class GuardedDriver implements Driver {
  private readonly guarded = new WeakMap<DatabaseConnection, GuardedConnection>();

  constructor(private readonly inner: Driver) {}

  private unwrap(c: DatabaseConnection): DatabaseConnection {
    return c instanceof GuardedConnection ? c.inner : c;
  }

  async init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.inner.acquireConnection();
    let c = this.guarded.get(inner);
    if (!c) this.guarded.set(inner, (c = new GuardedConnection(inner)));
    return c;
  }
  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(this.unwrap(c), settings);
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
    if (!this.inner.savepoint)
      throw new Error('savepoints are not supported by this database driver');
    await this.inner.savepoint(this.unwrap(c), name, compile);
  }
  async rollbackToSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2],
  ): Promise<void> {
    if (!this.inner.rollbackToSavepoint)
      throw new Error('savepoints are not supported by this database driver');
    await this.inner.rollbackToSavepoint(this.unwrap(c), name, compile);
  }
  async releaseSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2],
  ): Promise<void> {
    if (!this.inner.releaseSavepoint)
      throw new Error('savepoints are not supported by this database driver');
    await this.inner.releaseSavepoint(this.unwrap(c), name, compile);
  }
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.unwrap(c));
  }
  async destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
