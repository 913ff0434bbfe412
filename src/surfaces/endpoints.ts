// Which MCP surface a request's host addresses: the network on the apex, a community on its
// subdomain (or custom domain), nothing otherwise. A private community exists on MCP only for a
// request whose key may read it (one of its agent keys, or a member's user key): to anyone else its
// host answers exactly as an unknown host does. The host is resolved by the front door's one cached
// resolver; beside it, a community's MCP configuration and key checks are kept briefly and built
// surfaces until the community or its configuration changes: they are on every request's path, and
// building a surface converts every tool schema. Each of these caches holds a bounded number of
// communities (the least recently used goes first), so memory does not grow with the network.
import { createHash } from 'node:crypto';
import { BoundedCache } from '../bounded-cache.ts';
import type { IncomingMessage } from 'node:http';
import type { Actor } from '../domain/actor.ts';
import { canRead } from '../domain/authorization.ts';
import { credentialOf, header } from '../mcp/http-reply.ts';
import { addressedByPath } from '../domain/urls.ts';
import type { RequestScope } from '../operations/pipeline.ts';
import type { Community } from '../store/types.ts';
import type { CommunityMcpConfig } from '../domain/community-mcp.ts';
import type { Endpoint } from '../mcp/http-transport.ts';
import type { Surface } from '../mcp/surface.ts';
import type { SurfaceDeps } from './calls.ts';
import { communitySurface } from './community.ts';
import { networkSurface } from './network.ts';

/** What the request's host resolves to (the front door's cached resolver). */
export type HostResolver = (
  req: IncomingMessage,
) => Promise<
  { kind: 'network' } | { kind: 'community'; community: Community } | { kind: 'unknown' }
>;

export const communityScope = (communityId: string) => `community:${communityId}`;
export const NETWORK_SCOPE = 'network';

/** What a host that is neither the apex nor a community gets (JSON-RPC -32600, HTTP 404). */
export const NO_COMMUNITY = 'This request did not resolve to a community.';

export type EndpointOptions = {
  deps: SurfaceDeps;
  resolveHost: HostResolver;
  /** Who a key makes its bearer on a community (anonymous when the key is not valid there). */
  actorOf: (community: Community, key: string, scope: RequestScope) => Promise<Actor>;
  /** How long a community's configuration and a key check are reused (default 5 s). */
  ttlMs?: number;
  /** Told which community a request reached (its access-log line names it). */
  reached?: (req: IncomingMessage, slug: string) => void;
  /** Told who a request's caller is once the pipeline authenticated them (for the same line). */
  authenticated?: (req: IncomingMessage, actor: Actor) => void;
  /** Communities whose configuration and built surface are kept (default CACHED_COMMUNITIES). */
  maxCommunities?: number;
};

/**
 * Communities whose MCP configuration and built surface are kept at most, by default. A surface
 * holds about 30 KB of its own (its instructions, skills, prompts, resources and the tools'
 * closures; the tool list itself is shared) and takes about 1 ms to build again.
 */
export const CACHED_COMMUNITIES = 500;
/** Key checks (a key found to read a private community) kept at most. */
export const CACHED_KEY_CHECKS = 10_000;

/** How full the caches are, for tests and memory reports. */
export type EndpointCacheSizes = { configs: number; surfaces: number; readers: number };

export function createEndpointResolver(o: EndpointOptions): {
  /** The endpoint, with the request's RequestScope as its context (`context`: the connector's). */
  resolve(req: IncomingMessage, context?: unknown): Promise<Endpoint | undefined>;
  forget(communityId?: string): void;
  sizes(): EndpointCacheSizes;
} {
  const ttl = o.ttlMs ?? 5_000;
  const maxEntries = o.maxCommunities ?? CACHED_COMMUNITIES;
  type Configured = { config: CommunityMcpConfig; configAt: number };
  /** community id → its MCP configuration in force (read at most `ttl` ago). */
  const configs = new BoundedCache<string, Configured>({ maxEntries, ttlMs: ttl });
  const surfaces = new BoundedCache<string, { version: string; surface: Surface }>({ maxEntries });
  const network: Endpoint = { scope: NETWORK_SCOPE, surface: networkSurface(o.deps) };
  /** "<community id>:<hash of a key>" → that key was found to read that community (within `ttl`). */
  const readers = new BoundedCache<string, true>({ maxEntries: CACHED_KEY_CHECKS, ttlMs: ttl });

  /** Whether the request carries a key that may read the private `community`. */
  async function mayRead(
    community: Community,
    req: IncomingMessage,
    scope: RequestScope,
  ): Promise<boolean> {
    const key = credentialOf(req);
    if (!key) return false;
    const cacheKey = `${community.id}:${createHash('sha256').update(key).digest('base64url')}`;
    if (readers.get(cacheKey)) return true;
    if (!canRead(await o.actorOf(community, key, scope), community)) return false;
    readers.set(cacheKey, true);
    return true;
  }

  function surfaceOf(community: Community, config: CommunityMcpConfig, configAt: number): Surface {
    const version = `${community.updatedAt}|${configAt}`;
    const cached = surfaces.get(community.id);
    if (cached && cached.version === version) return cached.surface;
    const surface = communitySurface(o.deps, community, config);
    surfaces.set(community.id, { version, surface });
    return surface;
  }

  return {
    async resolve(req, context) {
      const authenticated = o.authenticated;
      const scope: RequestScope = {
        pathForm: addressedByPath((name) => header(req, name)),
        connector: (context as RequestScope | undefined)?.connector,
        ...(authenticated ? { onAuthenticated: (actor) => authenticated(req, actor) } : {}),
      };
      const r = await o.resolveHost(req);
      if (r.kind === 'network') return { ...network, context: scope };
      if (r.kind === 'unknown') return undefined;
      if (r.community.visibility === 'private' && !(await mayRead(r.community, req, scope)))
        return undefined;
      let configured = configs.get(r.community.id);
      if (!configured) {
        const loaded = await o.deps.services.mcpConfig.load(r.community.id);
        configured = { config: loaded.config, configAt: loaded.updatedAt };
        configs.set(r.community.id, configured);
      }
      o.reached?.(req, r.community.slug);
      return {
        scope: communityScope(r.community.id),
        surface: surfaceOf(r.community, configured.config, configured.configAt),
        context: scope,
      };
    },
    /** Drops kept answers, so the next request sees a changed configuration (or community). */
    forget(communityId) {
      readers.clear();
      if (communityId) {
        configs.delete(communityId);
        surfaces.delete(communityId);
      } else {
        configs.clear();
        surfaces.clear();
      }
    },
    sizes: () => ({ configs: configs.size, surfaces: surfaces.size, readers: readers.size }),
  };
}
