// The audit log: append-only, newest first, keyset-paginated by (occurred_at, id).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { AuditEntry, AuditRepository, NewAuditEntry } from '../identity.ts';
import type { Keyset, Page } from '../types.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import type { Insertable } from 'kysely';
import type { AuditLogTable } from '../identity-schema.ts';
import { auditFromRow, narrow, timeOrderedId, type Db } from './identity-rows.ts';
import { compiledOnce } from './compiled-once.ts';

const AUDIT_COLUMNS = [
  'id',
  'community_id',
  'occurred_at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'key_prefix',
  'action',
  'targets',
  'outcome',
  'error_code',
  'ip',
] as const satisfies readonly (keyof AuditLogTable)[];

/** One audit row (a statement every agent call sends), its columns' values in AUDIT_COLUMNS order. */
const insertAudit = compiledOnce((db: Db, ...values: unknown[]) =>
  db
    .insertInto('audit_log')
    .values(
      Object.fromEntries(
        AUDIT_COLUMNS.map((column, i) => [column, values[i]]),
      ) as Insertable<AuditLogTable>,
    ),
);

export class KyselyAudit implements AuditRepository {
  private readonly db: Db;
  constructor(db: Kysely<Database>) {
    this.db = narrow(db);
  }

  async record(entry: NewAuditEntry): Promise<AuditEntry> {
    const occurredAt = entry.occurredAt ? toIso(entry.occurredAt) : nowIso();
    const row = {
      id: timeOrderedId(Date.parse(occurredAt)),
      community_id: entry.communityId && isUuid(entry.communityId) ? entry.communityId : null,
      occurred_at: occurredAt,
      actor_kind: entry.actorKind,
      actor_id: entry.actorId,
      actor_name: entry.actorName,
      key_prefix: entry.keyPrefix,
      action: entry.action,
      targets: JSON.stringify(entry.targets ?? {}),
      outcome: entry.outcome,
      error_code: entry.errorCode,
      ip: entry.ip,
    };
    await insertAudit(this.db, ...AUDIT_COLUMNS.map((column) => row[column]));
    return auditFromRow(row);
  }

  async list(
    communityId: string | null,
    page: { after?: Keyset; limit: number },
  ): Promise<Page<AuditEntry, Keyset>> {
    if (communityId !== null && !isUuid(communityId)) return { items: [], next: null };
    let query = this.db.selectFrom('audit_log').selectAll();
    query =
      communityId === null
        ? query.where('community_id', 'is', null)
        : query.where('community_id', '=', communityId);
    if (page.after) {
      const { key, id } = page.after;
      query = query.where((eb) =>
        eb.or([
          eb('occurred_at', '<', String(key)),
          eb.and([eb('occurred_at', '=', String(key)), eb('id', '<', id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('occurred_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
    const items = rows.slice(0, page.limit).map(auditFromRow);
    const last = items[items.length - 1];
    return {
      items,
      next: rows.length > page.limit && last ? { key: last.occurredAt, id: last.id } : null,
    };
  }
}
