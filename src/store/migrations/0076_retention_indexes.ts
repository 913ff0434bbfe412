// Indexes the retention sweep (../kysely/retention.ts) finds old rows by, so that each bounded
// batch reads only the rows it deletes instead of scanning the table.
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

const INDEXES = [
  ['idempotency_records_by_created', 'idempotency_records', 'created_at'],
  ['web_sessions_by_expiry', 'web_sessions', 'expires_at'],
  ['oauth_codes_by_expiry', 'oauth_codes', 'expires_at'],
  ['audit_log_by_time', 'audit_log', 'occurred_at'],
] as const;

export function retentionIndexesMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      for (const [name, table, column] of INDEXES)
        await db.schema.createIndex(name).on(table).column(column).execute();
    },
    async down(db: AnySchemaDb) {
      for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'plain indexes on the audit log and idempotency records (large tables)',
);
