// Webhook records and the repository contracts over them: a community's endpoints, outbox events,
// deliveries and attempts (reached through store.community(id).webhooks), and the dispatcher's
// queue across communities (store.webhookQueue), which claims due deliveries under a lease.
import type { Keyset, Page } from './types.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export type WebhookEndpointRecord = {
  id: string;
  communityId: string;
  url: string;
  description: string;
  events: string[];
  /** Encrypted signing secret (the domain encrypts and decrypts; the store keeps what it is given). */
  secret: string;
  previousSecret: string | null;
  /** Epoch ms until which the previous secret also signs. */
  previousExpiresAt: number | null;
  active: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
};

export type NewWebhookEndpoint = {
  url: string;
  description: string;
  events: string[];
  secret: string;
};
export type WebhookEndpointPatch = Partial<{
  url: string;
  description: string;
  events: string[];
  active: boolean;
  disabledReason: string | null;
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: number | null;
}>;

export type WebhookEventRecord = {
  id: string;
  communityId: string;
  type: string;
  payload: unknown;
  createdAt: string;
};

export type WebhookDeliveryRecord = {
  id: string;
  communityId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
};

export type WebhookAttemptRecord = {
  id: string;
  deliveryId: string;
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
};

export type NewWebhookAttempt = Omit<WebhookAttemptRecord, 'id'> & { communityId: string };

/** A delivery a dispatcher holds: with its endpoint and event, and the token that proves the claim. */
export type ClaimedDelivery = {
  delivery: WebhookDeliveryRecord;
  endpoint: WebhookEndpointRecord;
  event: WebhookEventRecord;
  leaseToken: string;
};

/** One community's webhooks (tenancy by construction: every query carries its community id). */
export interface WebhookRepository {
  createEndpoint(input: NewWebhookEndpoint): Promise<WebhookEndpointRecord>;
  getEndpoint(id: string): Promise<WebhookEndpointRecord | undefined>;
  listEndpoints(): Promise<WebhookEndpointRecord[]>;
  updateEndpoint(
    id: string,
    patch: WebhookEndpointPatch,
  ): Promise<WebhookEndpointRecord | undefined>;
  deleteEndpoint(id: string): Promise<boolean>;
  /** Ids of the active endpoints subscribed to `type`. */
  subscribers(type: string): Promise<string[]>;
  /** The outbox write: the event and one pending delivery per endpoint (call inside the change's transaction). */
  enqueue(
    event: { type: string; payload: unknown },
    endpointIds: string[],
    now?: number,
  ): Promise<WebhookEventRecord>;
  /** Deliveries of one endpoint, newest first. */
  listDeliveries(
    endpointId: string,
    query: { status?: DeliveryStatus; after?: Keyset; limit: number },
  ): Promise<Page<WebhookDeliveryRecord, Keyset>>;
  getDelivery(
    id: string,
  ): Promise<(WebhookDeliveryRecord & { event: WebhookEventRecord }) | undefined>;
  listAttempts(deliveryId: string): Promise<WebhookAttemptRecord[]>;
  /** Makes a delivery due now again (same id, so receivers can deduplicate); false if unknown. */
  redeliver(id: string, now?: number): Promise<boolean>;
}

export type DeliveryOutcome =
  | { status: 'delivered'; lastStatus: number }
  | {
      status: 'pending';
      nextAttemptAt: number;
      lastStatus: number | null;
      lastError: string | null;
    }
  | { status: 'failed'; lastStatus: number | null; lastError: string | null };

/** The dispatcher's view, across communities. */
export interface WebhookQueue {
  /**
   * Claims up to `limit` due deliveries of active endpoints for `leaseMs` (one claimer per delivery:
   * FOR UPDATE SKIP LOCKED on PostgreSQL, a single statement under SQLite's write lock), counting
   * the attempt.
   */
  claim(input: { now: number; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]>;
  recordAttempt(attempt: NewWebhookAttempt): Promise<void>;
  /** Ends the claim with an outcome; false when the lease was lost meanwhile (nothing changed). */
  finish(deliveryId: string, leaseToken: string, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * Gives a claim back unsent (the dispatcher is stopping): the lease cleared and the claim's attempt
   * not counted, so the delivery is due at once for another instance; false when the lease was lost.
   */
  release(deliveryId: string, leaseToken: string): Promise<boolean>;
  disableEndpoint(endpointId: string, reason: string): Promise<void>;
  /**
   * Forgets up to `limit` events created before `before` (epoch ms) whose deliveries have all ended
   * (delivered or failed) before it, with those deliveries and their attempts; returns how many
   * events. Pending deliveries, and anything newer, are kept.
   */
  prune(input: { before: number; limit: number }): Promise<number>;
  /** When the next delivery falls due (epoch ms), if any is pending. */
  nextDue(): Promise<number | null>;
  /** How many deliveries of active endpoints are pending (due now or waiting for a retry). */
  pendingCount(): Promise<number>;
  /** The installation's secret-encryption key by name; `create` stores `fallback` if none is there yet. */
  keyringKey(name: string, fallback: string): Promise<string>;
}
