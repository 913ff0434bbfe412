// Storage of each community's declarative MCP configuration: an opaque JSON document (validated by
// src/domain/community-mcp.ts) and when it last changed.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export type StoredMcpConfig = { communityId: string; config: unknown; updatedAt: number };

export interface CommunityMcpConfigRepository {
  get(communityId: string): Promise<StoredMcpConfig | undefined>;
  /** Replaces the document; `updatedAt` is strictly increasing per community. */
  put(communityId: string, config: unknown, now: number): Promise<StoredMcpConfig>;
  /** Communities whose configuration changed after `since` (epoch ms). */
  changedSince(since: number): Promise<Array<{ communityId: string; updatedAt: number }>>;
}

export class KyselyCommunityMcpConfig implements CommunityMcpConfigRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(communityId: string): Promise<StoredMcpConfig | undefined> {
    const row = await this.db.selectFrom('community_mcp_config').selectAll().where('community_id', '=', communityId).executeTakeFirst();
    return row ? { communityId, config: JSON.parse(row.config), updatedAt: Number(row.updated_at) } : undefined;
  }

  async put(communityId: string, config: unknown, now: number): Promise<StoredMcpConfig> {
    const previous = await this.get(communityId);
    const updatedAt = Math.max(now, (previous?.updatedAt ?? 0) + 1);
    const text = JSON.stringify(config);
    await this.db
      .insertInto('community_mcp_config')
      .values({ community_id: communityId, config: text, updated_at: updatedAt })
      .onConflict((oc) => oc.column('community_id').doUpdateSet({ config: text, updated_at: updatedAt }))
      .execute();
    return { communityId, config, updatedAt };
  }

  async changedSince(since: number): Promise<Array<{ communityId: string; updatedAt: number }>> {
    const rows = await this.db.selectFrom('community_mcp_config').select(['community_id', 'updated_at']).where('updated_at', '>', since).execute();
    return rows.map((r) => ({ communityId: r.community_id, updatedAt: Number(r.updated_at) }));
  }
}
