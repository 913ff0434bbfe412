// Each community's MCP configuration document, one row per community.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { CommunityMcpConfigRepository, StoredMcpConfig } from '../community-mcp.ts';

export class KyselyCommunityMcpConfig implements CommunityMcpConfigRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(communityId: string): Promise<StoredMcpConfig | undefined> {
    const row = await this.db
      .selectFrom('community_mcp_config')
      .selectAll()
      .where('community_id', '=', communityId)
      .executeTakeFirst();
    return row
      ? { communityId, config: JSON.parse(row.config), updatedAt: Number(row.updated_at) }
      : undefined;
  }

  async put(communityId: string, config: unknown, now: number): Promise<StoredMcpConfig> {
    const previous = await this.get(communityId);
    const updatedAt = Math.max(now, (previous?.updatedAt ?? 0) + 1);
    const text = JSON.stringify(config);
    await this.db
      .insertInto('community_mcp_config')
      .values({ community_id: communityId, config: text, updated_at: updatedAt })
      .onConflict((oc) =>
        oc.column('community_id').doUpdateSet({ config: text, updated_at: updatedAt }),
      )
      .execute();
    return { communityId, config, updatedAt };
  }

  async changedSince(since: number): Promise<Array<{ communityId: string; updatedAt: number }>> {
    const rows = await this.db
      .selectFrom('community_mcp_config')
      .select(['community_id', 'updated_at'])
      .where('updated_at', '>', since)
      .execute();
    return rows.map((r) => ({ communityId: r.community_id, updatedAt: Number(r.updated_at) }));
  }
}
