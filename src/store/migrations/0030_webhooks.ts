// Webhooks: per-community endpoints (URL, events, encrypted signing secrets with a rotation
// overlap), the outbox of events written in the same transaction as the change, one delivery per
// (event, endpoint) claimed by one dispatcher at a time through a lease, and every attempt's record.
// The keyring holds the installation's secret-encryption key when none is configured.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function webhooksMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        // Event types as a comma-separated list ("topic.created,post.created").
        .addColumn('events', 'text', (c) => c.notNull())
        // Encrypted (AES-256-GCM) signing secrets; the previous one signs too until it expires.
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_expires_at', 'bigint')
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addUniqueConstraint('webhook_endpoints_scoped', ['community_id', 'id'])
        .execute();
      await db.schema
        .createIndex('webhook_endpoints_by_community')
        .on('webhook_endpoints')
        .columns(['community_id', 'active'])
        .execute();

      await db.schema
        .createTable('webhook_events')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('type', 'text', (c) => c.notNull())
        // The change as the domain saw it inside its transaction (JSON); rendered for receivers on delivery.
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) => c.notNull())
        .addColumn('endpoint_id', id, (c) => c.notNull())
        .addColumn('event_id', id, (c) =>
          c.notNull().references('webhook_events.id').onDelete('cascade'),
        )
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`),
        )
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // Epoch milliseconds: due and lease comparisons are numeric on both engines.
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('lease_token', 'text')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addForeignKeyConstraint(
          'webhook_deliveries_endpoint',
          ['community_id', 'endpoint_id'],
          'webhook_endpoints',
          ['community_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_by_endpoint')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) => c.notNull())
        .addColumn('delivery_id', id, (c) =>
          c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
        )
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', ts, (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('response_excerpt', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_attempts_by_delivery')
        .on('webhook_attempts')
        .columns(['delivery_id', 'attempt'])
        .execute();

      await db.schema
        .createTable('webhook_keyring')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: AnySchemaDb) {
      for (const t of [
        'webhook_keyring',
        'webhook_attempts',
        'webhook_deliveries',
        'webhook_events',
        'webhook_endpoints',
      ])
        await db.schema.dropTable(t).execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('new tables');
