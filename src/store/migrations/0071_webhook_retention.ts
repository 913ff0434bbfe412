// Webhook retention: old events are forgotten once every delivery of theirs has ended (the
// dispatcher prunes them, see WebhookQueue.prune). The prune walks events by age and asks, per
// event, for its deliveries still pending or recent: both need an index (and deleting an event's
// deliveries does, as does the cascade of an event's delete).
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function webhookRetentionMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createIndex('webhook_events_by_age')
        .on('webhook_events')
        .columns(['created_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_by_event')
        .on('webhook_deliveries')
        .columns(['event_id'])
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropIndex('webhook_deliveries_by_event').execute();
      await db.schema.dropIndex('webhook_events_by_age').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'plain indexes on webhook_events and webhook_deliveries (a retention period of rows)',
);
