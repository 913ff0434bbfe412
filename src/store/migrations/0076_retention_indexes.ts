// Indexes the retention sweep (../kysely/retention.ts) finds old rows by, so that each bounded
// batch reads only the rows it deletes instead of scanning the table.
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';

const INDEXES = [
  ['idempotency_records_by_created', 'idempotency_records', 'created_at'],
  ['web_sessions_by_expiry', 'web_sessions', 'expires_at'],
  ['oauth_codes_by_expiry', 'oauth_codes', 'expires_at'],
  ['audit_log_by_time', 'audit_log', 'occurred_at'],
] as const;

export function retentionIndexesMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const [name, table, column] of INDEXES)
        await db.schema.createIndex(name).on(table).column(column).execute();
    },
    async down(db: Kysely<any>) {
      for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
    },
  };
}
