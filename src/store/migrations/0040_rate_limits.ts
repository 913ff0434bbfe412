// Rate-limit buckets shared by every instance over one PostgreSQL (SQLite serves one process, whose
// buckets stay in memory): one row per bucket with its tokens and when they were last counted.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function rateLimitsMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      if (dialect !== 'postgres') return;
      // UNLOGGED: buckets are a minute's worth of state; losing them in a crash only refills them.
      await sql`create unlogged table rate_limit_buckets (
        bucket text primary key,
        tokens double precision not null,
        updated_at timestamptz not null
      )`.execute(db);
      await db.schema
        .createIndex('rate_limit_buckets_updated')
        .on('rate_limit_buckets')
        .column('updated_at')
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('rate_limit_buckets').ifExists().execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
