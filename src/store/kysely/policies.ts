// Approval policies of one community: per write kind, auto or approval.
import type { ApprovalPolicyRepository } from '../identity.ts';
import { nowIso } from '../time.ts';
import type { Db } from './identity-rows.ts';

export class KyselyPolicies implements ApprovalPolicyRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async get(kind: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('approval_policies')
      .select('mode')
      .where('community_id', '=', this.communityId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row?.mode as string | undefined;
  }

  async set(kind: string, mode: string): Promise<void> {
    const updated_at = nowIso();
    await this.db
      .insertInto('approval_policies')
      .values({ community_id: this.communityId, kind, mode, updated_at })
      .onConflict((oc) => oc.columns(['community_id', 'kind']).doUpdateSet({ mode, updated_at }))
      .execute();
  }

  async list(): Promise<{ kind: string; mode: string }[]> {
    const rows = await this.db
      .selectFrom('approval_policies')
      .select(['kind', 'mode'])
      .where('community_id', '=', this.communityId)
      .orderBy('kind')
      .execute();
    return rows.map((r) => ({ kind: r.kind, mode: r.mode }));
  }
}
