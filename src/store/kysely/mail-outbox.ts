// The mail outbox over Kysely. A claim sets a lease (until, token) on due mails in one conditional
// UPDATE; on PostgreSQL the candidate rows are locked FOR UPDATE SKIP LOCKED so concurrent
// dispatchers claim disjoint sets, and SQLite runs the statement under its single write lock. A
// dispatcher that dies leaves its lease to expire; the next claim takes the mail again, same id.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type { Dialect } from '../repositories.ts';
import type { MailDatabase, MailOutboxTable } from '../mail-schema.ts';
import type {
  BounceState,
  ClaimedMail,
  MailOutbox,
  MailOutcome,
  MailRecord,
  MailStatus,
  NewMail,
} from '../mail.ts';
import type { Keyset, Page } from '../types.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso, toIsoOrNull } from '../time.ts';
import { changed } from './identity-rows.ts';
import { newestFirst } from './newest-first.ts';

export type MailDb = Kysely<MailDatabase>;
export const mailDb = (db: Kysely<Database>): MailDb => db as unknown as MailDb;

function mailFromRow(r: Selectable<MailOutboxTable>): MailRecord {
  const status = r.status as MailStatus;
  return {
    id: r.id,
    messageId: r.message_id,
    communityId: r.community_id,
    personId: r.person_id,
    to: r.to_address,
    kind: r.kind,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    headers: JSON.parse(r.headers) as Record<string, string>,
    status,
    attempts: Number(r.attempts),
    nextAttemptAt: status === 'pending' ? Number(r.next_attempt_at) : null,
    lastError: r.last_error,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
    sentAt: toIsoOrNull(r.sent_at),
  };
}

export class KyselyMailOutbox implements MailOutbox {
  constructor(
    private readonly db: MailDb,
    private readonly dialect: Dialect,
  ) {}

  async enqueue(mail: NewMail, now = Date.now()): Promise<void> {
    const at = new Date(now).toISOString();
    await this.db
      .insertInto('mail_outbox')
      .values({
        id: mail.id,
        message_id: mail.messageId,
        community_id: mail.communityId,
        person_id: mail.personId,
        to_address: mail.to,
        kind: mail.kind,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
        headers: JSON.stringify(mail.headers),
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  async claim(input: { now: number; leaseMs: number; limit: number }): Promise<ClaimedMail[]> {
    const token = randomUUID();
    const { now, limit } = input;
    const until = now + input.leaseMs;
    const lock = this.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const claimed = await sql<{ id: string }>`
      update mail_outbox set lease_until = ${until}, lease_token = ${token}, attempts = attempts + 1
      where id in (
        select id from mail_outbox
        where status = 'pending' and next_attempt_at <= ${now} and (lease_until is null or lease_until < ${now})
        order by next_attempt_at
        limit ${limit}
        ${lock}
      )
      and status = 'pending' and (lease_until is null or lease_until < ${now})
      returning id`.execute(this.db);
    const ids = claimed.rows.map((r) => r.id);
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('id', 'in', ids)
      .where('lease_token', '=', token)
      .orderBy('next_attempt_at')
      .execute();
    return rows.map((r) => ({ mail: mailFromRow(r), leaseToken: token }));
  }

  async finish(id: string, leaseToken: string, outcome: MailOutcome): Promise<boolean> {
    const at = nowIso();
    const base = { status: outcome.status, lease_until: null, lease_token: null, updated_at: at };
    const set =
      outcome.status === 'sent'
        ? { ...base, last_error: null, sent_at: at }
        : outcome.status === 'pending'
          ? { ...base, next_attempt_at: outcome.nextAttemptAt, last_error: outcome.lastError }
          : { ...base, last_error: outcome.lastError };
    const result = await this.db
      .updateTable('mail_outbox')
      .set(set)
      .where('id', '=', id)
      .where('lease_token', '=', leaseToken)
      .executeTakeFirst();
    return changed(result) === 1;
  }

  async release(id: string, leaseToken: string): Promise<boolean> {
    const result = await this.db
      .updateTable('mail_outbox')
      .set({
        lease_until: null,
        lease_token: null,
        attempts: sql<number>`attempts - 1`,
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .where('lease_token', '=', leaseToken)
      .executeTakeFirst();
    return changed(result) === 1;
  }

  async nextDue(): Promise<number | null> {
    const row = await this.db
      .selectFrom('mail_outbox')
      .select(
        sql<
          number | string | null
        >`min(case when lease_until > next_attempt_at then lease_until else next_attempt_at end)`.as(
          'due',
        ),
      )
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row?.due === null || row?.due === undefined ? null : Number(row.due);
  }

  async get(id: string): Promise<MailRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? mailFromRow(row) : undefined;
  }

  async list(query: {
    status?: MailStatus;
    communityId?: string | null;
    after?: Keyset;
    limit: number;
  }): Promise<Page<MailRecord, Keyset>> {
    let q = this.db.selectFrom('mail_outbox').selectAll();
    if (query.status) q = q.where('status', '=', query.status);
    if (query.communityId === null) q = q.where('community_id', 'is', null);
    else if (query.communityId !== undefined) q = q.where('community_id', '=', query.communityId);
    return newestFirst(q, query, mailFromRow);
  }

  async counts(communityId?: string | null): Promise<Record<MailStatus, number>> {
    let q = this.db
      .selectFrom('mail_outbox')
      .select(['status', sql<number | string>`count(*)`.as('n')])
      .groupBy('status');
    if (communityId === null) q = q.where('community_id', 'is', null);
    else if (communityId !== undefined) q = q.where('community_id', '=', communityId);
    const out: Record<MailStatus, number> = { pending: 0, sent: 0, failed: 0 };
    for (const r of await q.execute()) out[r.status as MailStatus] = Number(r.n);
    return out;
  }

  async retry(id: string, now = Date.now()): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .updateTable('mail_outbox')
      .set({ status: 'pending', next_attempt_at: now, updated_at: nowIso() })
      .where('id', '=', id)
      .where('status', '!=', 'sent')
      .executeTakeFirst();
    return changed(result) === 1;
  }

  async getByMessageId(messageId: string): Promise<MailRecord | undefined> {
    const row = await this.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    return row ? mailFromRow(row) : undefined;
  }

  async unsubscribe(personId: string, kind: string): Promise<void> {
    if (!isUuid(personId)) return;
    await this.db
      .insertInto('mail_unsubscribes')
      .values({ person_id: personId, kind, created_at: nowIso() })
      .onConflict((oc) => oc.columns(['person_id', 'kind']).doNothing())
      .execute();
  }

  async isUnsubscribed(personId: string, kind: string): Promise<boolean> {
    if (!isUuid(personId)) return false;
    const row = await this.db
      .selectFrom('mail_unsubscribes')
      .select('kind')
      .where('person_id', '=', personId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return Boolean(row);
  }

  async recordHardBounce(
    address: string,
    reason: string,
    limit: number,
    at = nowIso(),
  ): Promise<BounceState> {
    const key = address.trim().toLowerCase();
    const last_reason = reason.slice(0, 1000);
    await this.db
      .insertInto('mail_bounces')
      .values({ address: key, hard_bounces: 1, last_reason, last_at: at })
      .onConflict((oc) =>
        oc.column('address').doUpdateSet({
          hard_bounces: sql`mail_bounces.hard_bounces + 1`,
          last_reason,
          last_at: at,
        }),
      )
      .execute();
    await this.db
      .updateTable('mail_bounces')
      .set({ disabled_at: at })
      .where('address', '=', key)
      .where('disabled_at', 'is', null)
      .where('hard_bounces', '>=', limit)
      .execute();
    return (await this.bounceState(key))!;
  }

  async bounceState(address: string): Promise<BounceState | undefined> {
    const r = await this.db
      .selectFrom('mail_bounces')
      .selectAll()
      .where('address', '=', address.trim().toLowerCase())
      .executeTakeFirst();
    return r
      ? {
          address: r.address,
          hardBounces: Number(r.hard_bounces),
          lastReason: r.last_reason,
          lastAt: toIso(r.last_at),
          disabledAt: toIsoOrNull(r.disabled_at),
        }
      : undefined;
  }

  async clearBounces(address: string): Promise<void> {
    await this.db
      .deleteFrom('mail_bounces')
      .where('address', '=', address.trim().toLowerCase())
      .execute();
  }

  async topicCommunity(topicId: string): Promise<string | undefined> {
    if (!isUuid(topicId)) return undefined;
    const row = await this.db
      .selectFrom('topics')
      .select('community_id')
      .where('id', '=', topicId)
      .executeTakeFirst();
    return row?.community_id;
  }
}
