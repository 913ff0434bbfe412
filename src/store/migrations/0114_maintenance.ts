// Maintenance mode, shared by every instance over the database: one row while it is on, with the
// message writers are shown and when it began (`hamlet maintenance on|off`).
import type { Migration } from 'kysely';
import type { AnySchemaDb } from '../any-schema.ts';
import type { Dialect } from '../repositories.ts';
import { safeUnderTraffic } from './traffic.ts';

export function maintenanceMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('maintenance')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('since_ms', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('maintenance').ifExists().execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
