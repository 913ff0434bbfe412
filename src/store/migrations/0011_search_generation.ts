// Search caches' change signal (PostgreSQL): a sequence every statement writing search_documents
// advances, so an instance can tell in O(1) whether the index changed since it cached document
// frequencies (src/search/vocabulary.ts). Sequences are not transactional and take no row lock,
// so concurrent writers do not queue on it. SQLite needs nothing: the search code reads
// total_changes() and PRAGMA data_version instead.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function searchGenerationMigration(dialect: Dialect): Migration {
  if (dialect !== 'postgres') return { async up() {}, async down() {} };
  return {
    async up(db: AnySchemaDb) {
      for (const s of [
        `create sequence search_generation`,
        `create function hamlet_search_generation() returns trigger language plpgsql as $$
           begin perform nextval('search_generation'); return null; end $$`,
        `create trigger search_documents_generation after insert or update or delete or truncate on search_documents
           for each statement execute function hamlet_search_generation()`,
      ])
        await sql.raw(s).execute(db);
    },
    async down(db: AnySchemaDb) {
      for (const s of [
        `drop trigger if exists search_documents_generation on search_documents`,
        `drop function if exists hamlet_search_generation()`,
        `drop sequence if exists search_generation`,
      ])
        await sql.raw(s).execute(db);
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a sequence and triggers (PostgreSQL), nothing on SQLite');
