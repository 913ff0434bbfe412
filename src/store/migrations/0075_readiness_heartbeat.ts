// One row that readiness (/readyz) rewrites to prove the database takes writes, not only reads: a
// read-only SQLite file, a full disk or a read-only PostgreSQL answer `select 1` but refuse this.
// A logged table on purpose (its commit writes the WAL, as every real write does).
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function readinessHeartbeatMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('readiness_heartbeat')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('probed_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('readiness_heartbeat').ifExists().execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
