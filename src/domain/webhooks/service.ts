// A community's webhooks, administered by its admins: endpoints (URL, events, description, active),
// their signing secrets (shown once at creation and rotation; during a rotation's overlap both sign),
// and the delivery log (every delivery with its attempts, redelivery on demand). Each change is a use
// case of the one write runner (./webhook-*.ts; what they check: ./endpoint-rules.ts).
import { z } from 'zod';
import type { WebhookSettings } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type {
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookEventRecord,
} from '../../store/webhooks.ts';
import type { Actor } from '../actor.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../cursor.ts';
import { cursor, pageLimit } from '../fields.ts';
import { parse } from '../validate.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import { DELIVERY_STATUSES, findDelivery, findEndpoint } from './endpoint-rules.ts';
import type { WebhookEventType } from './outbox.ts';
import type { SecretBox } from './secret-box.ts';
import { webhookCreate } from './webhook-create.ts';
import { webhookDelete } from './webhook-delete.ts';
import { webhookRedeliver } from './webhook-redeliver.ts';
import { webhookSecretRotate } from './webhook-secret-rotate.ts';
import { webhookUpdate } from './webhook-update.ts';

export { DELIVERY_STATUSES, webhookFields } from './endpoint-rules.ts';

export type EndpointView = {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  active: boolean;
  disabled_reason: string | null;
  /** While a rotated-out secret still signs. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
};

export type DeliveryView = {
  id: string;
  endpoint_id: string;
  event_id: string;
  event: WebhookEventType;
  status: (typeof DELIVERY_STATUSES)[number];
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
};

export type AttemptView = {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
};

export function endpointView(e: WebhookEndpointRecord, now = Date.now()): EndpointView {
  const overlap =
    e.previousSecret && e.previousExpiresAt && e.previousExpiresAt > now
      ? new Date(e.previousExpiresAt).toISOString()
      : null;
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events as WebhookEventType[],
    active: e.active,
    disabled_reason: e.disabledReason,
    previous_secret_expires_at: overlap,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  };
}

export function deliveryView(d: WebhookDeliveryRecord): DeliveryView {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event: d.eventType as WebhookEventType,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt === null ? null : new Date(d.nextAttemptAt).toISOString(),
    last_status: d.lastStatus,
    last_error: d.lastError,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

function attemptView(a: WebhookAttemptRecord): AttemptView {
  return {
    attempt: a.attempt,
    started_at: a.startedAt,
    duration_ms: a.durationMs,
    status_code: a.statusCode,
    error: a.error,
    response_excerpt: a.responseExcerpt,
  };
}

export class WebhookService {
  private readonly writes: {
    create: ReturnType<typeof webhookCreate>;
    update: ReturnType<typeof webhookUpdate>;
    rotate: ReturnType<typeof webhookSecretRotate>;
  };

  constructor(
    private readonly store: Store,
    settings: WebhookSettings,
    private readonly secrets: SecretBox,
    private readonly runner: WriteRunner,
  ) {
    this.writes = {
      create: webhookCreate(settings.allowPrivate, secrets),
      update: webhookUpdate(settings.allowPrivate),
      rotate: webhookSecretRotate(secrets),
    };
  }

  async list(actor: Actor, community: Community): Promise<EndpointView[]> {
    await this.admin(actor, community);
    return (await this.hooks(community).listEndpoints()).map((e) => endpointView(e));
  }

  /** A new endpoint and its secret: the secret is shown this once. */
  async create(
    actor: Actor,
    community: Community,
    input: { url: string; events: string[]; description?: string },
    options?: RunOptions,
  ): Promise<{ endpoint: EndpointView; secret: string }> {
    const { endpoint, secret } = await this.runner.run(
      this.writes.create,
      actor,
      community,
      input,
      options,
    );
    return { endpoint: endpointView(endpoint), secret };
  }

  async get(actor: Actor, community: Community, id: string): Promise<EndpointView> {
    await this.admin(actor, community);
    return endpointView(await findEndpoint(this.store, community, id));
  }

  /** Changes URL, events, description or active; re-activating clears the reason it was disabled. */
  async update(
    actor: Actor,
    community: Community,
    id: string,
    input: { url?: string; events?: string[]; description?: string; active?: boolean },
    options?: RunOptions,
  ): Promise<EndpointView> {
    const payload = { ...input, id };
    return endpointView(
      await this.runner.run(this.writes.update, actor, community, payload, options),
    );
  }

  async remove(
    actor: Actor,
    community: Community,
    id: string,
    options?: RunOptions,
  ): Promise<void> {
    await this.runner.run(webhookDelete, actor, community, { id }, options);
  }

  /** A new secret, shown once; the previous one keeps signing for `overlapHours` (default 24). */
  async rotateSecret(
    actor: Actor,
    community: Community,
    id: string,
    input: { overlap_hours?: number } = {},
    options?: RunOptions,
  ): Promise<{ endpoint: EndpointView; secret: string }> {
    const payload = { ...input, id };
    const { endpoint, secret } = await this.runner.run(
      this.writes.rotate,
      actor,
      community,
      payload,
      options,
    );
    return { endpoint: endpointView(endpoint), secret };
  }

  async deliveries(
    actor: Actor,
    community: Community,
    endpointId: string,
    input: { status?: string; cursor?: string | null; limit?: number } = {},
  ): Promise<{ deliveries: DeliveryView[]; nextCursor: string | null }> {
    await this.admin(actor, community);
    const data = parse(
      z.object({
        status: z.enum(DELIVERY_STATUSES).optional(),
        cursor: cursor.nullish(),
        limit: pageLimit(100, 20),
      }),
      input,
    );
    await findEndpoint(this.store, community, endpointId);
    const listing = `deliveries:${endpointId}:${data.status ?? 'all'}`;
    const page = await this.hooks(community).listDeliveries(endpointId, {
      status: data.status,
      after: decodeCursor(listing, data.cursor, CURSOR_SHAPES.byTime),
      limit: data.limit,
    });
    return {
      deliveries: page.items.map(deliveryView),
      nextCursor: page.next ? encodeCursor(listing, page.next) : null,
    };
  }

  /** One delivery with its event and every attempt. */
  async delivery(
    actor: Actor,
    community: Community,
    id: string,
  ): Promise<{ delivery: DeliveryView; event: WebhookEventRecord; attempts: AttemptView[] }> {
    await this.admin(actor, community);
    const found = await findDelivery(this.store, community, id);
    const attempts = await this.hooks(community).listAttempts(found.id);
    return {
      delivery: deliveryView(found),
      event: found.event,
      attempts: attempts.map(attemptView),
    };
  }

  /** Sends a delivery again, now, with the same id (receivers deduplicate on it). */
  async redeliver(
    actor: Actor,
    community: Community,
    id: string,
    options?: RunOptions,
  ): Promise<DeliveryView> {
    return deliveryView(await this.runner.run(webhookRedeliver, actor, community, { id }, options));
  }

  /** The secrets that sign a delivery now: the current one, and the previous one during its overlap. */
  async signingSecrets(endpoint: WebhookEndpointRecord, now = Date.now()): Promise<string[]> {
    const secrets = [await this.secrets.open(endpoint.secret)];
    if (endpoint.previousSecret && endpoint.previousExpiresAt && endpoint.previousExpiresAt > now)
      secrets.push(await this.secrets.open(endpoint.previousSecret));
    return secrets;
  }

  // — helpers —

  private hooks(community: Community) {
    return this.store.community(community.id).webhooks;
  }

  private async admin(actor: Actor, community: Community): Promise<void> {
    return requireCommunityAdmin(this.store, actor, community, 'manage webhooks');
  }
}
