// Row mapping of the webhook tables (migration 0030) → records, shared by the community's webhook
// repository and the dispatcher's queue.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  WebhookAttemptsTable,
  WebhookDatabase,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookEventsTable,
} from '../webhooks-schema.ts';
import type {
  DeliveryStatus,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookEventRecord,
} from '../webhooks.ts';
import { toIso } from '../time.ts';

export type WebhookDb = Kysely<WebhookDatabase>;
export const webhookDb = (db: Kysely<Database>): WebhookDb => db as unknown as WebhookDb;

const millis = (v: number | string | null): number | null => (v === null ? null : Number(v));

export function endpointFromRow(r: Selectable<WebhookEndpointsTable>): WebhookEndpointRecord {
  return {
    id: r.id,
    communityId: r.community_id,
    url: r.url,
    description: r.description,
    events: r.events ? r.events.split(',') : [],
    secret: r.secret,
    previousSecret: r.previous_secret,
    previousExpiresAt: millis(r.previous_expires_at),
    active: Number(r.active) === 1,
    disabledReason: r.disabled_reason,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
  };
}

export function eventFromRow(r: Selectable<WebhookEventsTable>): WebhookEventRecord {
  return {
    id: r.id,
    communityId: r.community_id,
    type: r.type,
    payload: JSON.parse(r.payload),
    createdAt: toIso(r.created_at),
  };
}

export function deliveryFromRow(
  r: Selectable<WebhookDeliveriesTable> & { event_type: string },
): WebhookDeliveryRecord {
  const status = r.status as DeliveryStatus;
  return {
    id: r.id,
    communityId: r.community_id,
    endpointId: r.endpoint_id,
    eventId: r.event_id,
    eventType: r.event_type,
    status,
    attempts: Number(r.attempts),
    nextAttemptAt: status === 'pending' ? millis(r.next_attempt_at) : null,
    lastStatus: r.last_status === null ? null : Number(r.last_status),
    lastError: r.last_error,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
  };
}

export function attemptFromRow(r: Selectable<WebhookAttemptsTable>): WebhookAttemptRecord {
  return {
    id: r.id,
    deliveryId: r.delivery_id,
    attempt: Number(r.attempt),
    startedAt: toIso(r.started_at),
    durationMs: Number(r.duration_ms),
    statusCode: r.status_code === null ? null : Number(r.status_code),
    error: r.error,
    responseExcerpt: r.response_excerpt,
  };
}
