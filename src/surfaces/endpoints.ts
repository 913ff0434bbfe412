// Which MCP surface a request's host addresses: the network on the apex, a community on its
// subdomain (or custom domain), nothing otherwise. A private community exists on MCP only for a
// request whose key may read it (one of its agent keys, or a member's user key): to anyone else its
// host answers exactly as an unknown host does. Lookups, key checks and built surfaces are cached briefly: resolving a host is on every
// request's path, and building a surface converts every tool schema.
import { createHash } from 'node:crypto';
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

export type HostLookup = (
  host: string | undefined,
) => Promise<
  { kind: 'network' } | { kind: 'community'; community: Community } | { kind: 'unknown' }
>;

export const communityScope = (communityId: string) => `community:${communityId}`;
export const NETWORK_SCOPE = 'network';

/** What a host that is neither the apex nor a community gets (JSON-RPC -32600, HTTP 404). */
export const NO_COMMUNITY = 'This request did not resolve to a community.';

export type EndpointOptions = {
  deps: SurfaceDeps;
  lookup: HostLookup;
  hostOf: (req: IncomingMessage) => string | undefined;
  /** Who a key makes its bearer on a community (anonymous when the key is not valid there). */
  actorOf: (community: Community, key: string, scope: RequestScope) => Promise<Actor>;
  /** How long a host → community answer is reused (default 5 s). */
  ttlMs?: number;
  /** Told which community a request reached (its access-log line names it). */
  reached?: (req: IncomingMessage, slug: string) => void;
};

export function createEndpointResolver(o: EndpointOptions): {
  /** The endpoint, with the request's RequestScope as its context (`context`: the connector's). */
  resolve(req: IncomingMessage, context?: unknown): Promise<Endpoint | undefined>;
  forget(communityId?: string): void;
} {
  const ttl = o.ttlMs ?? 5_000;
  type Resolved =
    | { kind: 'network' }
    | { kind: 'unknown' }
    | { kind: 'community'; community: Community; config: CommunityMcpConfig; configAt: number };
  const hosts = new Map<string, { at: number; value: Resolved }>();
  const surfaces = new Map<string, { version: string; surface: Surface }>();
  const network: Endpoint = { scope: NETWORK_SCOPE, surface: networkSurface(o.deps) };
  /** "<community id>:<hash of a key>" → when that key was last found to read that community. */
  const readers = new Map<string, number>();

  /** Whether the request carries a key that may read the private `community`. */
  async function mayRead(
    community: Community,
    req: IncomingMessage,
    scope: RequestScope,
    now: number,
  ): Promise<boolean> {
    const key = credentialOf(req);
    if (!key) return false;
    const cacheKey = `${community.id}:${createHash('sha256').update(key).digest('base64url')}`;
    const seen = readers.get(cacheKey);
    if (seen !== undefined && now - seen <= ttl) return true;
    if (!canRead(await o.actorOf(community, key, scope), community)) return false;
    if (readers.size > 10_000) readers.clear();
    readers.set(cacheKey, now);
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
      const scope: RequestScope = {
        pathForm: addressedByPath((name) => header(req, name)),
        connector: (context as RequestScope | undefined)?.connector,
      };
      const host = (o.hostOf(req) ?? '').toLowerCase();
      const now = Date.now();
      let hit = hosts.get(host);
      if (!hit || now - hit.at > ttl) {
        const found = await o.lookup(host);
        const value: Resolved =
          found.kind === 'community'
            ? {
                ...found,
                ...(await o.deps.services.mcpConfig
                  .load(found.community.id)
                  .then((c) => ({ config: c.config, configAt: c.updatedAt }))),
              }
            : found;
        hit = { at: now, value };
        if (hosts.size > 10_000) hosts.clear(); // unknown hosts must not grow this without bound
        hosts.set(host, hit);
      }
      const r = hit.value;
      if (r.kind === 'network') return { ...network, context: scope };
      if (r.kind === 'unknown') return undefined;
      if (r.community.visibility === 'private' && !(await mayRead(r.community, req, scope, now)))
        return undefined;
      o.reached?.(req, r.community.slug);
      return {
        scope: communityScope(r.community.id),
        surface: surfaceOf(r.community, r.config, r.configAt),
        context: scope,
      };
    },
    /** Drops cached answers, so the next request sees a changed community or configuration. */
    forget(communityId) {
      hosts.clear();
      readers.clear();
      if (communityId) surfaces.delete(communityId);
      else surfaces.clear();
    },
  };
}
