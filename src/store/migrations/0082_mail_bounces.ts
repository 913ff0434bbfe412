// Hard bounces of outbound mail, per address: each DSN that says a mail failed for good (or a 5xx
// refusal at send) counts one; at the limit (src/domain/mail/bounces.ts) mail to the address is
// disabled (`disabled_at`) until its owner confirms it again.
import { type Migration, sql } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function mailBouncesMigration(dialect: Dialect): Migration {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('mail_bounces')
        // Lower-cased address.
        .addColumn('address', 'text', (c) => c.primaryKey())
        .addColumn('hard_bounces', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_reason', 'text')
        .addColumn('last_at', ts, (c) => c.notNull())
        .addColumn('disabled_at', ts)
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('mail_bounces').ifExists().execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
