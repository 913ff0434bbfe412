// Agents' grants (scopes, trusted) and agent keys of one community.
import type { AgentAccessRepository, AgentGrant, AgentKeyRecord } from '../identity.ts';
import { uniquely } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { nowIso } from '../time.ts';
import { agentKeyFromRow, changed, grantScopes, newKeyColumns, type Db } from './identity-rows.ts';

export class KyselyAgentAccess implements AgentAccessRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async getGrant(agentId: string): Promise<AgentGrant | undefined> {
    if (!isUuid(agentId)) return undefined;
    const row = await this.db
      .selectFrom('agents')
      .select(['id', 'scopes', 'trusted'])
      .where('community_id', '=', this.communityId)
      .where('id', '=', agentId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      agentId: row.id,
      scopes: grantScopes(row.scopes),
      trusted: Number(row.trusted) === 1,
    };
  }

  async setGrant(agentId: string, grant: { scopes: string[]; trusted: boolean }): Promise<boolean> {
    if (!isUuid(agentId)) return false;
    const result = await this.db
      .updateTable('agents')
      .set({ scopes: [...new Set(grant.scopes)].join(','), trusted: grant.trusted ? 1 : 0 })
      .where('community_id', '=', this.communityId)
      .where('id', '=', agentId)
      .executeTakeFirst();
    return changed(result) > 0;
  }

  async createKey(input: {
    agentId: string;
    prefix: string;
    keyHash: string;
    expiresAt: string | null;
  }): Promise<AgentKeyRecord> {
    const row = {
      ...newKeyColumns(input),
      community_id: this.communityId,
      agent_id: input.agentId,
    };
    await uniquely('agent key', () => this.db.insertInto('agent_keys').values(row).execute());
    return agentKeyFromRow(row);
  }

  async listKeys(agentId?: string): Promise<AgentKeyRecord[]> {
    if (agentId !== undefined && !isUuid(agentId)) return [];
    let query = this.db
      .selectFrom('agent_keys')
      .selectAll()
      .where('community_id', '=', this.communityId);
    if (agentId !== undefined) query = query.where('agent_id', '=', agentId);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(agentKeyFromRow);
  }

  async findKeys(ref: string): Promise<AgentKeyRecord[]> {
    const rows = await this.db
      .selectFrom('agent_keys')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where((eb) =>
        isUuid(ref) ? eb.or([eb('id', '=', ref), eb('prefix', '=', ref)]) : eb('prefix', '=', ref),
      )
      .execute();
    return rows.map(agentKeyFromRow);
  }

  async revokeKey(id: string, at = nowIso()): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .updateTable('agent_keys')
      .set({ revoked_at: at })
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return changed(result) > 0;
  }
}
