// One community's webhooks: endpoints, the outbox write (event + deliveries), the delivery log.
import type { Keyset, Page } from '../types.ts';
import type {
  DeliveryStatus,
  NewWebhookEndpoint,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookEndpointPatch,
  WebhookEndpointRecord,
  WebhookEventRecord,
  WebhookRepository,
} from '../webhooks.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { changed } from './identity-rows.ts';
import {
  attemptFromRow,
  deliveryFromRow,
  endpointFromRow,
  eventFromRow,
  type WebhookDb,
} from './webhook-rows.ts';

export class KyselyWebhooks implements WebhookRepository {
  constructor(
    private readonly db: WebhookDb,
    private readonly communityId: string,
  ) {}

  async createEndpoint(input: NewWebhookEndpoint): Promise<WebhookEndpointRecord> {
    const at = nowIso();
    const row = {
      id: newId(),
      community_id: this.communityId,
      url: input.url,
      description: input.description,
      events: input.events.join(','),
      secret: input.secret,
      previous_secret: null,
      previous_expires_at: null,
      active: 1,
      disabled_reason: null,
      created_at: at,
      updated_at: at,
    };
    await this.db.insertInto('webhook_endpoints').values(row).execute();
    return endpointFromRow(row);
  }

  async getEndpoint(id: string): Promise<WebhookEndpointRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && endpointFromRow(row);
  }

  async listEndpoints(): Promise<WebhookEndpointRecord[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(endpointFromRow);
  }

  async updateEndpoint(
    id: string,
    patch: WebhookEndpointPatch,
  ): Promise<WebhookEndpointRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const set: Record<string, unknown> = { updated_at: nowIso() };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.events !== undefined) set.events = patch.events.join(',');
    if (patch.active !== undefined) set.active = patch.active ? 1 : 0;
    if (patch.disabledReason !== undefined) set.disabled_reason = patch.disabledReason;
    if (patch.secret !== undefined) set.secret = patch.secret;
    if (patch.previousSecret !== undefined) set.previous_secret = patch.previousSecret;
    if (patch.previousExpiresAt !== undefined) set.previous_expires_at = patch.previousExpiresAt;
    await this.db
      .updateTable('webhook_endpoints')
      .set(set)
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .execute();
    return this.getEndpoint(id);
  }

  async deleteEndpoint(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (
      changed(
        await this.db
          .deleteFrom('webhook_endpoints')
          .where('community_id', '=', this.communityId)
          .where('id', '=', id)
          .executeTakeFirst(),
      ) === 1
    );
  }

  async subscribers(type: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .select(['id', 'events'])
      .where('community_id', '=', this.communityId)
      .where('active', '=', 1)
      .execute();
    return rows.filter((r) => r.events.split(',').includes(type)).map((r) => r.id);
  }

  async enqueue(
    event: { type: string; payload: unknown },
    endpointIds: string[],
    now = Date.now(),
  ): Promise<WebhookEventRecord> {
    const at = new Date(now).toISOString();
    const row = {
      id: newId(),
      community_id: this.communityId,
      type: event.type,
      payload: JSON.stringify(event.payload),
      created_at: at,
    };
    await this.db.insertInto('webhook_events').values(row).execute();
    if (endpointIds.length) {
      await this.db
        .insertInto('webhook_deliveries')
        .values(
          endpointIds.map((endpoint_id) => ({
            id: newId(),
            community_id: this.communityId,
            endpoint_id,
            event_id: row.id,
            status: 'pending',
            attempts: 0,
            next_attempt_at: now,
            lease_until: null,
            lease_token: null,
            last_status: null,
            last_error: null,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    }
    return eventFromRow(row);
  }

  async listDeliveries(
    endpointId: string,
    query: { status?: DeliveryStatus; after?: Keyset; limit: number },
  ): Promise<Page<WebhookDeliveryRecord, Keyset>> {
    if (!isUuid(endpointId)) return { items: [], next: null };
    let q = this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .selectAll('d')
      .select('e.type as event_type')
      .where('d.community_id', '=', this.communityId)
      .where('d.endpoint_id', '=', endpointId);
    if (query.status) q = q.where('d.status', '=', query.status);
    if (query.after) {
      const { key, id } = query.after;
      q = q.where((eb) =>
        eb.or([
          eb('d.created_at', '<', String(key)),
          eb.and([eb('d.created_at', '=', String(key)), eb('d.id', '<', id)]),
        ]),
      );
    }
    const rows = await q
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(query.limit + 1)
      .execute();
    const items = rows.slice(0, query.limit).map(deliveryFromRow);
    const last = items[items.length - 1];
    return {
      items,
      next: rows.length > query.limit && last ? { key: last.createdAt, id: last.id } : null,
    };
  }

  async getDelivery(
    id: string,
  ): Promise<(WebhookDeliveryRecord & { event: WebhookEventRecord }) | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .selectAll('d')
      .select([
        'e.type as event_type',
        'e.payload as event_payload',
        'e.created_at as event_created_at',
      ])
      .where('d.community_id', '=', this.communityId)
      .where('d.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const event = eventFromRow({
      id: row.event_id,
      community_id: row.community_id,
      type: row.event_type,
      payload: row.event_payload,
      created_at: row.event_created_at,
    });
    return { ...deliveryFromRow(row), event };
  }

  async listAttempts(deliveryId: string): Promise<WebhookAttemptRecord[]> {
    if (!isUuid(deliveryId)) return [];
    const rows = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('delivery_id', '=', deliveryId)
      .orderBy('attempt')
      .orderBy('started_at')
      .execute();
    return rows.map(attemptFromRow);
  }

  async redeliver(id: string, now = Date.now()): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        next_attempt_at: now,
        lease_until: null,
        lease_token: null,
        updated_at: toIso(new Date(now)),
      })
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    return changed(result) === 1;
  }
}
