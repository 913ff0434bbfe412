// The search index for a database engine, built by the wiring root beside the Store over the same
// Kysely instance (the index reads the tables the store writes; it never writes them).
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { Dialect } from '../store/repositories.ts';
import type { SearchIndex } from './index.ts';
import { PostgresSearchIndex } from './postgres-index.ts';
import { SqliteSearchIndex } from './sqlite-index.ts';
import type { PoolOptions } from './sqlite-pool.ts';

/** `options`: SQLite's (where its worker's failures are reported, when it splits a ranking). */
export function createSearchIndex(
  db: Kysely<Database>,
  dialect: Dialect,
  options: PoolOptions = {},
): SearchIndex {
  return dialect === 'postgres' ? new PostgresSearchIndex(db) : new SqliteSearchIndex(db, options);
}
