// The dispatcher's queue across communities. A claim sets a lease (until, token) on due deliveries
// of active endpoints in one statement; on PostgreSQL the candidate rows are locked FOR UPDATE SKIP
// LOCKED so concurrent instances claim disjoint sets, and SQLite runs the statement under its single
// write lock. A dispatcher that dies leaves its lease to expire; another claim then takes the
// delivery again, with the same id.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  NewWebhookAttempt,
  WebhookQueue,
} from '../webhooks.ts';
import { newId } from '../ids.ts';
import { nowIso } from '../time.ts';
import { changed } from './identity-rows.ts';
import { deliveryFromRow, endpointFromRow, eventFromRow, type WebhookDb } from './webhook-rows.ts';

export class KyselyWebhookQueue implements WebhookQueue {
  constructor(
    private readonly db: WebhookDb,
    private readonly dialect: Dialect,
  ) {}

  async claim(input: { now: number; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]> {
    const token = randomUUID();
    const { now, limit } = input;
    const until = now + input.leaseMs;
    const lock = this.dialect === 'postgres' ? sql`for update of d skip locked` : sql``;
    const claimed = await sql<{ id: string }>`
      update webhook_deliveries set lease_until = ${until}, lease_token = ${token}, attempts = attempts + 1
      where id in (
        select d.id from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id and e.active = 1
        where d.status = 'pending' and d.next_attempt_at <= ${now} and (d.lease_until is null or d.lease_until < ${now})
        order by d.next_attempt_at
        limit ${limit}
        ${lock}
      )
      and status = 'pending' and (lease_until is null or lease_until < ${now} or lease_token = ${token})
      returning id`.execute(this.db);
    const ids = claimed.rows.map((r) => r.id);
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .selectAll('d')
      .select([
        'ev.type as event_type',
        'ev.payload as event_payload',
        'ev.created_at as event_created_at',
        'e.url',
        'e.description',
        'e.events',
        'e.secret',
        'e.previous_secret',
        'e.previous_expires_at',
        'e.active',
        'e.disabled_reason',
        'e.created_at as endpoint_created_at',
        'e.updated_at as endpoint_updated_at',
      ])
      .where('d.id', 'in', ids)
      .where('d.lease_token', '=', token)
      .orderBy('d.next_attempt_at')
      .execute();
    return rows.map((r) => ({
      leaseToken: token,
      delivery: deliveryFromRow(r),
      event: eventFromRow({
        id: r.event_id,
        community_id: r.community_id,
        type: r.event_type,
        payload: r.event_payload,
        created_at: r.event_created_at,
      }),
      endpoint: endpointFromRow({
        id: r.endpoint_id,
        community_id: r.community_id,
        url: r.url,
        description: r.description,
        events: r.events,
        secret: r.secret,
        previous_secret: r.previous_secret,
        previous_expires_at: r.previous_expires_at,
        active: r.active,
        disabled_reason: r.disabled_reason,
        created_at: r.endpoint_created_at,
        updated_at: r.endpoint_updated_at,
      }),
    }));
  }

  async recordAttempt(a: NewWebhookAttempt): Promise<void> {
    await this.db
      .insertInto('webhook_attempts')
      .values({
        id: newId(),
        community_id: a.communityId,
        delivery_id: a.deliveryId,
        attempt: a.attempt,
        started_at: a.startedAt,
        duration_ms: a.durationMs,
        status_code: a.statusCode,
        error: a.error,
        response_excerpt: a.responseExcerpt,
      })
      .execute();
  }

  async finish(deliveryId: string, leaseToken: string, outcome: DeliveryOutcome): Promise<boolean> {
    const base = {
      status: outcome.status,
      lease_until: null,
      lease_token: null,
      last_status: outcome.lastStatus,
      updated_at: nowIso(),
    };
    const set =
      outcome.status === 'pending'
        ? { ...base, next_attempt_at: outcome.nextAttemptAt, last_error: outcome.lastError }
        : { ...base, last_error: outcome.status === 'failed' ? outcome.lastError : null };
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set(set)
      .where('id', '=', deliveryId)
      .where('lease_token', '=', leaseToken)
      .executeTakeFirst();
    return changed(result) === 1;
  }

  async release(deliveryId: string, leaseToken: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({
        lease_until: null,
        lease_token: null,
        attempts: sql<number>`attempts - 1`,
        updated_at: nowIso(),
      })
      .where('id', '=', deliveryId)
      .where('lease_token', '=', leaseToken)
      .executeTakeFirst();
    return changed(result) === 1;
  }

  async disableEndpoint(endpointId: string, reason: string): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ active: 0, disabled_reason: reason, updated_at: nowIso() })
      .where('id', '=', endpointId)
      .execute();
  }

  async prune(input: { before: number; limit: number }): Promise<number> {
    const before = new Date(input.before).toISOString();
    return this.db.transaction().execute(async (tx) => {
      const events = await tx
        .selectFrom('webhook_events as ev')
        .select('ev.id')
        .where('ev.created_at', '<', before)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_deliveries as d')
                .select('d.id')
                .whereRef('d.event_id', '=', 'ev.id')
                .where((w) =>
                  w.or([w('d.status', '=', 'pending'), w('d.updated_at', '>=', before)]),
                ),
            ),
          ),
        )
        .limit(input.limit)
        .execute();
      const ids = events.map((e) => e.id);
      if (!ids.length) return 0;
      const deliveries = tx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('event_id', 'in', ids);
      await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
      await tx.deleteFrom('webhook_deliveries').where('event_id', 'in', ids).execute();
      await tx.deleteFrom('webhook_events').where('id', 'in', ids).execute();
      return ids.length;
    });
  }

  async nextDue(): Promise<number | null> {
    const row = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(
        sql<
          number | string | null
        >`min(case when d.lease_until > d.next_attempt_at then d.lease_until else d.next_attempt_at end)`.as(
          'due',
        ),
      )
      .where('d.status', '=', 'pending')
      .where('e.active', '=', 1)
      .executeTakeFirst();
    return row?.due === null || row?.due === undefined ? null : Number(row.due);
  }

  async pendingCount(): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('d.status', '=', 'pending')
      .where('e.active', '=', 1)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async keyringKey(name: string, fallback: string): Promise<string> {
    const found = await this.db
      .selectFrom('webhook_keyring')
      .select('key')
      .where('name', '=', name)
      .executeTakeFirst();
    if (found) return found.key;
    // Two instances starting at once: the first insert wins, both read it back.
    await this.db
      .insertInto('webhook_keyring')
      .values({ name, key: fallback, created_at: nowIso() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return (
      await this.db
        .selectFrom('webhook_keyring')
        .select('key')
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).key;
  }
}
