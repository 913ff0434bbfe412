// Storage of each community's declarative MCP configuration: an opaque JSON document (validated by
// src/domain/community-mcp.ts) and when it last changed.

export type StoredMcpConfig = { communityId: string; config: unknown; updatedAt: number };

export interface CommunityMcpConfigRepository {
  get(communityId: string): Promise<StoredMcpConfig | undefined>;
  /** Replaces the document; `updatedAt` is strictly increasing per community. */
  put(communityId: string, config: unknown, now: number): Promise<StoredMcpConfig>;
  /** Communities whose configuration changed after `since` (epoch ms). */
  changedSince(since: number): Promise<Array<{ communityId: string; updatedAt: number }>>;
}
