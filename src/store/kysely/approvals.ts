// The approval queue of one community. decide() is the conditional UPDATE (… WHERE status =
// 'pending') that lets exactly one of concurrent deciders win.
import type { ApprovalRecord, ApprovalRepository, NewApproval } from '../identity.ts';
import type { AuthorRef, Keyset, Page } from '../types.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { approvalFromRow, changed, type Db } from './identity-rows.ts';

export class KyselyApprovals implements ApprovalRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async create(input: NewApproval): Promise<ApprovalRecord> {
    const row = {
      id: newId(),
      community_id: this.communityId,
      kind: input.kind,
      payload: JSON.stringify(input.payload),
      submitter_kind: input.submitter.kind,
      submitter_id: input.submitter.id,
      submitter_name: input.submitter.name,
      submitter_via: input.submitter.via ?? null,
      key_prefix: input.keyPrefix,
      status: 'pending',
      decided_by_kind: null,
      decided_by_id: null,
      decided_by_name: null,
      reason: null,
      result: null,
      created_at: input.createdAt ? toIso(input.createdAt) : nowIso(),
      decided_at: null,
    };
    await this.db.insertInto('approvals').values(row).execute();
    return approvalFromRow(row);
  }

  async getById(id: string): Promise<ApprovalRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('approvals')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && approvalFromRow(row);
  }

  async list(query: {
    status?: string;
    submitterId?: string;
    after?: Keyset;
    limit: number;
  }): Promise<Page<ApprovalRecord, Keyset>> {
    let q = this.db
      .selectFrom('approvals')
      .selectAll()
      .where('community_id', '=', this.communityId);
    if (query.status) q = q.where('status', '=', query.status);
    if (query.submitterId) {
      if (!isUuid(query.submitterId)) return { items: [], next: null };
      q = q.where('submitter_id', '=', query.submitterId);
    }
    if (query.after) {
      const { key, id } = query.after;
      q = q.where((eb) =>
        eb.or([
          eb('created_at', '>', String(key)),
          eb.and([eb('created_at', '=', String(key)), eb('id', '>', id)]),
        ]),
      );
    }
    const rows = await q
      .orderBy('created_at')
      .orderBy('id')
      .limit(query.limit + 1)
      .execute();
    const items = rows.slice(0, query.limit).map(approvalFromRow);
    const last = items[items.length - 1];
    return {
      items,
      next: rows.length > query.limit && last ? { key: last.createdAt, id: last.id } : null,
    };
  }

  async decide(
    id: string,
    to: 'approved' | 'rejected' | 'failed',
    decidedBy: AuthorRef,
    reason: string | null,
    at = nowIso(),
  ): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .updateTable('approvals')
      .set({
        status: to,
        decided_by_kind: decidedBy.kind,
        decided_by_id: decidedBy.id,
        decided_by_name: decidedBy.name,
        reason,
        decided_at: at,
      })
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return changed(result) === 1;
  }

  async complete(
    id: string,
    to: 'applied' | 'failed',
    result: unknown,
    reason: string | null,
  ): Promise<boolean> {
    if (!isUuid(id)) return false;
    const updated = await this.db
      .updateTable('approvals')
      .set({
        status: to,
        result: result === undefined ? null : JSON.stringify(result),
        ...(reason !== null ? { reason } : {}),
      })
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    return changed(updated) === 1;
  }
}
