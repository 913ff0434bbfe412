// Kysely table types of migration 0030_webhooks (see ./schema.ts for the conventions).
type Timestamp = string | Date;
type Millis = number | string;

export interface WebhookEndpointsTable {
  id: string;
  community_id: string;
  url: string;
  description: string;
  events: string;
  secret: string;
  previous_secret: string | null;
  previous_expires_at: Millis | null;
  active: number;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookEventsTable {
  id: string;
  community_id: string;
  type: string;
  payload: string;
  created_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  community_id: string;
  endpoint_id: string;
  event_id: string;
  status: string;
  attempts: number;
  next_attempt_at: Millis;
  lease_until: Millis | null;
  lease_token: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: string;
  community_id: string;
  delivery_id: string;
  attempt: number;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface WebhookKeyringTable {
  name: string;
  key: string;
  created_at: Timestamp;
}

export interface WebhookDatabase {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_keyring: WebhookKeyringTable;
}
