// A community's webhooks, administered by its admins: endpoints (URL, events, description, active),
// their signing secrets (shown once at creation and rotation; during a rotation's overlap both sign),
// and the delivery log (every delivery with its attempts, redelivery on demand).
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
import { DomainError } from '../errors.ts';
import { cursor, pageLimit, recordId } from '../fields.ts';
import type { AuditService } from '../identity/audit.ts';
import { parse } from '../validate.ts';
import { bareHost, isPrivateByName } from '../../outbound/addresses.ts';
import { WEBHOOK_EVENTS, type WebhookEventType } from './outbox.ts';
import type { SecretBox } from './secret-box.ts';
import { newWebhookSecret } from './signing.ts';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** Every webhook input field with its one limit (the operations describe them from here). */
export const webhookFields = {
  url: z
    .string()
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, 'must list at least one event')
    .max(WEBHOOK_EVENTS.length),
  description: z.string().trim().max(500, 'must be at most 500 characters'),
  active: z.boolean(),
  overlapHours: z
    .number()
    .int('must be a whole number')
    .min(0)
    .max(168, 'must be at most 168 hours (a week)'),
};

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
  constructor(
    private readonly store: Store,
    private readonly settings: WebhookSettings,
    private readonly secrets: SecretBox,
    private readonly audit: AuditService,
  ) {}

  async list(actor: Actor, community: Community): Promise<EndpointView[]> {
    await this.admin(actor, community);
    return (await this.hooks(community).listEndpoints()).map((e) => endpointView(e));
  }

  /** A new endpoint and its secret: the secret is shown this once. */
  async create(
    actor: Actor,
    community: Community,
    input: { url: string; events: string[]; description?: string },
  ): Promise<{ endpoint: EndpointView; secret: string }> {
    await this.admin(actor, community);
    const data = parse(
      z.object({
        url: webhookFields.url,
        events: webhookFields.events,
        description: webhookFields.description.default(''),
      }),
      input,
    );
    this.checkTarget(data.url);
    const secret = newWebhookSecret();
    const created = await this.hooks(community).createEndpoint({
      url: data.url,
      description: data.description,
      events: unique(data.events),
      secret: await this.secrets.seal(secret),
    });
    await this.record(actor, community, 'webhook.create', created.id);
    return { endpoint: endpointView(created), secret };
  }

  async get(actor: Actor, community: Community, id: string): Promise<EndpointView> {
    await this.admin(actor, community);
    return endpointView(await this.endpoint(community, id));
  }

  /** Changes URL, events, description or active; re-activating clears the reason it was disabled. */
  async update(
    actor: Actor,
    community: Community,
    id: string,
    input: { url?: string; events?: string[]; description?: string; active?: boolean },
  ): Promise<EndpointView> {
    await this.admin(actor, community);
    const data = parse(
      z.object({
        url: webhookFields.url.optional(),
        events: webhookFields.events.optional(),
        description: webhookFields.description.optional(),
        active: webhookFields.active.optional(),
      }),
      input,
    );
    await this.endpoint(community, id);
    if (data.url) this.checkTarget(data.url);
    const updated = await this.hooks(community).updateEndpoint(id, {
      ...data,
      events: data.events && unique(data.events),
      ...(data.active === true
        ? { disabledReason: null }
        : data.active === false
          ? { disabledReason: 'Disabled by an administrator.' }
          : {}),
    });
    await this.record(actor, community, 'webhook.update', id);
    return endpointView(updated!);
  }

  async remove(actor: Actor, community: Community, id: string): Promise<void> {
    await this.admin(actor, community);
    await this.endpoint(community, id);
    await this.hooks(community).deleteEndpoint(id);
    await this.record(actor, community, 'webhook.delete', id);
  }

  /** A new secret, shown once; the previous one keeps signing for `overlapHours` (default 24). */
  async rotateSecret(
    actor: Actor,
    community: Community,
    id: string,
    input: { overlap_hours?: number } = {},
  ): Promise<{ endpoint: EndpointView; secret: string }> {
    await this.admin(actor, community);
    const { overlap_hours } = parse(
      z.object({ overlap_hours: webhookFields.overlapHours.default(24) }),
      input,
    );
    const current = await this.endpoint(community, id);
    const secret = newWebhookSecret();
    const updated = await this.hooks(community).updateEndpoint(id, {
      secret: await this.secrets.seal(secret),
      previousSecret: overlap_hours > 0 ? current.secret : null,
      previousExpiresAt: overlap_hours > 0 ? Date.now() + overlap_hours * 3_600_000 : null,
    });
    await this.record(actor, community, 'webhook.rotate_secret', id);
    return { endpoint: endpointView(updated!), secret };
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
    await this.endpoint(community, endpointId);
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
    const found = await this.findDelivery(community, id);
    const attempts = await this.hooks(community).listAttempts(found.id);
    return {
      delivery: deliveryView(found),
      event: found.event,
      attempts: attempts.map(attemptView),
    };
  }

  /** Sends a delivery again, now, with the same id (receivers deduplicate on it). */
  async redeliver(actor: Actor, community: Community, id: string): Promise<DeliveryView> {
    await this.admin(actor, community);
    const found = await this.findDelivery(community, id);
    await this.hooks(community).redeliver(found.id);
    await this.record(actor, community, 'webhook.redeliver', found.id);
    return deliveryView((await this.hooks(community).getDelivery(found.id))!);
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

  private async endpoint(community: Community, id: string): Promise<WebhookEndpointRecord> {
    const { id: ref } = parse(z.object({ id: recordId }), { id });
    const found = await this.hooks(community).getEndpoint(ref);
    if (!found)
      throw new DomainError(
        'not_found',
        `No webhook endpoint "${ref}" in "${community.slug}". List the endpoints to see their ids.`,
      );
    return found;
  }

  private async findDelivery(community: Community, id: string) {
    const { id: ref } = parse(z.object({ id: recordId }), { id });
    const found = await this.hooks(community).getDelivery(ref);
    if (!found)
      throw new DomainError(
        'not_found',
        `No webhook delivery "${ref}" in "${community.slug}". List an endpoint's deliveries to see their ids.`,
      );
    return found;
  }

  /** Refuses targets that are private by their very name or literal address (resolved names are checked on delivery). */
  private checkTarget(url: string): void {
    const parsed = new URL(url);
    if (parsed.username || parsed.password)
      throw new DomainError(
        'invalid_argument',
        'A webhook URL must not carry a user name or password; receivers authenticate deliveries by their signature.',
      );
    if (this.settings.allowPrivate) return;
    const host = bareHost(parsed);
    if (isPrivateByName(host)) {
      throw new DomainError(
        'invalid_argument',
        `Webhooks cannot be delivered to ${host}: loopback, private and link-local addresses are refused. Use a public URL (the operator can allow private targets with HAMLET_WEBHOOK_ALLOW_PRIVATE=1 for development).`,
      );
    }
  }

  private async record(
    actor: Actor,
    community: Community,
    action: string,
    id: string,
  ): Promise<void> {
    return this.audit.record(actor, {
      communityId: community.id,
      action,
      targets: { webhook_id: id },
      outcome: 'ok',
    });
  }
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
