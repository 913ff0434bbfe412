// Kysely's SQLite driver prepares a better-sqlite3 statement for every query it runs, and preparing
// (parsing and planning the SQL) costs about as much as running one of the small indexed reads a
// request makes: most of a topic read's CPU went there. The database Kysely is given here prepares
// each SQL text once and hands back the same statement after that (Kysely's SQL for a query shape
// is the same text whatever its values, which are bound parameters). A statement still stepping
// through an iterate() is busy, so a fresh one is prepared beside it. SQLite re-prepares a stored
// statement by itself when the schema changed (a migration). The cache is bounded: SQL built from
// lists (IN with one parameter per item) has many shapes, and past the bound it starts over.
import type BetterSqlite3 from 'better-sqlite3';

/** Distinct SQL texts kept prepared; the cache is emptied when it would grow past this. */
export const MAX_CACHED_STATEMENTS = 2_000;

/** The part of a better-sqlite3 Database Kysely's SqliteDialect uses, preparing each text once. */
export function reusingStatements(
  database: BetterSqlite3.Database,
  max = MAX_CACHED_STATEMENTS,
): { prepare(sql: string): BetterSqlite3.Statement; close(): void } {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = database.prepare(sql);
      if (!cached) {
        if (statements.size >= max) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
