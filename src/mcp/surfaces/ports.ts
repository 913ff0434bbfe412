// What the community and network MCP surfaces need from the domain, as narrow interfaces. src/main.ts
// passes the real services; the surfaces never reach the store or HTTP themselves.
import type { Actor } from '../../domain/actor.ts';
import type { ContentService } from '../../domain/content.ts';
import type { SearchFilters, SearchMode, SearchResponse, SuggestResponse } from '../../search/types.ts';
import type { Community } from '../../store/types.ts';
import type { CommunityMcpConfig } from '../../domain/community-mcp.ts';
import type { EngineLogger } from '../engine.ts';

export type { SearchFilters, SearchMode, SearchResponse, SearchResult, SuggestResponse } from '../../search/types.ts';

export interface SearchPort {
  search(communities: Community[], query: string, filters: SearchFilters, mode?: SearchMode): Promise<SearchResponse>;
  suggestAnswer(communities: Community[], question: string, limit?: number, options?: { askWith?: string }): Promise<SuggestResponse>;
}

export type WriteKind = 'topic.create' | 'post.create' | 'solution.mark' | 'article.write';

/** The outcome of a write: applied at once, or queued for a moderator. */
export type WriteOutcome =
  | { status: 'applied'; result: Record<string, unknown> }
  | { status: 'pending_approval'; approval_id: string; message: string };

export interface WritePort {
  execute(actor: Actor, community: Community, kind: WriteKind, payload: Record<string, unknown>, options: { idempotencyKey?: string; ip?: string }): Promise<WriteOutcome>;
}

export interface ApprovalPort {
  get(actor: Actor, community: Community, approvalId: string): Promise<Record<string, unknown>>;
}

export interface IdentityPort {
  /** The agent behind a `hmlt_live_` key of this community; throws DomainError('unauthorized') otherwise. */
  authenticateAgent(community: Community, credential: string | undefined): Promise<Actor>;
  /** The person behind a `hmlt_u_` key; throws DomainError('unauthorized') otherwise. */
  authenticateUser(credential: string | undefined): Promise<Actor>;
}

/** Rate limits and the audit trail of authenticated tool calls (the transport limits by IP). */
export interface CallPolicy {
  /** Throws DomainError('rate_limited') when the caller's key must wait. */
  admit(actor: Actor): void | Promise<void>;
  audit(entry: { community: Community | null; actor: Actor; tool: string; ip: string; error?: unknown }): void | Promise<void>;
}

export type SurfaceDeps = {
  /** The community's declarative MCP configuration (tool mode, instructions, prompts). */
  mcpConfig: { load(communityId: string): Promise<{ config: CommunityMcpConfig; updatedAt: number }> };
  logger: EngineLogger;
  content: ContentService;
  search: SearchPort;
  writes: WritePort;
  approvals: ApprovalPort;
  identity: IdentityPort;
  policy: CallPolicy;
  /** Public URL helpers. */
  urls: { mcp(slug: string): string; web(slug: string): string };
  listPublicCommunities(): Promise<Community[]>;
  getCommunity(slug: string): Promise<Community | undefined>;
  version: string;
};
