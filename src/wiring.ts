// Adapters between the domain services and the MCP surfaces' ports, and the reaction of live MCP
// sessions to content changes. Part of the wiring (src/main.ts), kept apart to keep main.ts short.
import type { Config } from './config/config.ts';
import type { CommunityMcpService } from './domain/community-mcp.ts';
import type { Logger } from './log.ts';
import type { ContentService } from './domain/content.ts';
import type { ContentEvent } from './domain/events.ts';
import { RateLimitedError, type IdentityServices } from './domain/identity/index.ts';
import { communityMcpUrl, communityOrigin } from './domain/urls.ts';
import type { McpStack } from './mcp/stack.ts';
import { resourceUris } from './mcp/surfaces/community-extras.ts';
import { communityScope } from './mcp/surfaces/endpoints.ts';
import type { SurfaceDeps, WriteOutcome } from './mcp/surfaces/ports.ts';
import type { SearchService } from './search/service.ts';
import type { Store } from './store/repositories.ts';
import type { Community } from './store/types.ts';
import { VERSION } from './version.ts';

/** The MCP transport's per-IP admission, from the identity rate limits. */
export function admitByIp(identity: IdentityServices) {
  return (ip: string): { ok: true } | { ok: false; retryAfterSeconds: number; message: string } => {
    try {
      identity.rateLimits.checkIp(ip);
      return { ok: true };
    } catch (err) {
      if (err instanceof RateLimitedError) return { ok: false, retryAfterSeconds: err.retryAfterSeconds, message: err.message };
      throw err;
    }
  };
}

export function surfaceDeps(o: {
  store: Store;
  config: Config;
  content: ContentService;
  identity: IdentityServices;
  search: SearchService;
  mcpConfig: CommunityMcpService;
  logger: Logger;
}): SurfaceDeps {
  const { store, config, identity } = o;
  return {
    mcpConfig: o.mcpConfig,
    logger: o.logger,
    content: o.content,
    search: o.search,
    writes: {
      execute: async (actor, community, kind, payload, options) =>
        (await identity.writes.execute(actor, community, kind, payload, { idempotencyKey: options.idempotencyKey, ip: options.ip })) as WriteOutcome,
    },
    approvals: { get: async (actor, community, id) => (await identity.approvals.get(actor, community, id)) as unknown as Record<string, unknown> },
    identity: {
      authenticateAgent: (community, credential) => identity.auth.authenticateAgentKey(community, credential),
      authenticateUser: (credential) => identity.auth.authenticateUserKey(credential),
    },
    policy: {
      admit(actor) {
        if (actor.kind === 'agent') identity.rateLimits.checkKey(actor.keyPrefix ?? `agent:${actor.agentId}`);
        else if (actor.kind === 'person') identity.rateLimits.checkKey(actor.keyPrefix ?? `person:${actor.personId}`);
      },
      audit: ({ community, actor, tool, ip, error }) =>
        identity.audit.toolCall(actor, community?.id ?? null, tool, error === undefined ? { ok: true } : { ok: false, error }, { ip }),
    },
    urls: { mcp: (slug) => communityMcpUrl(config, slug), web: (slug) => communityOrigin(config, slug) },
    async listPublicCommunities() {
      const all: Community[] = [];
      let after: Parameters<Store['communities']['listPublic']>[0]['after'];
      do {
        const page = await store.communities.listPublic({ after, limit: 500 });
        all.push(...page.items);
        after = page.next ?? undefined;
      } while (after);
      return all;
    },
    getCommunity: (slug) => store.communities.getBySlug(slug),
    version: VERSION,
  };
}

const slugs = new Map<string, string>();

/** notifications/resources/updated for the topic (and article) resources a content event touched. */
export async function notifyTopicChanged(store: Store, mcp: McpStack, event: ContentEvent): Promise<void> {
  if (!('topicId' in event) || !('communityId' in event)) return;
  let slug = slugs.get(event.communityId);
  if (!slug) {
    slug = (await store.communities.getById(event.communityId))?.slug;
    if (!slug) return;
    slugs.set(event.communityId, slug);
  }
  const scope = communityScope(event.communityId);
  await mcp.engine.notifyResourceUpdated(scope, resourceUris.topic(slug, event.topicId as string));
  if (event.type === 'article.updated') {
    const topic = await store.community(event.communityId).topics.getById(event.topicId);
    if (topic) await mcp.engine.notifyResourceUpdated(scope, resourceUris.article(slug, topic.slug));
  }
}

/**
 * Watches the communities' MCP configuration (changed by this process, the CLI, or another
 * instance) and tells the sessions whose streams this instance holds that their lists changed.
 */
export function watchMcpConfig(o: { store: Store; mcp: McpStack; forget: (communityId: string) => void; logger: Logger; everyMs?: number }): () => void {
  let since = Date.now();
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const changed = await o.store.mcpConfig.changedSince(since);
      for (const { communityId, updatedAt } of changed) {
        since = Math.max(since, updatedAt);
        o.forget(communityId);
        const live = o.mcp.hub.liveSessionIds();
        for (const list of ['tools', 'prompts'] as const) {
          await o.mcp.engine.notifyListChanged(communityScope(communityId), list, (id) => live.has(id));
        }
      }
    } catch (err) {
      o.logger.warn({ err }, 'MCP configuration watch failed');
    } finally {
      running = false;
    }
  }, o.everyMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
