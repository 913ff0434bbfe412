// The one front door every face (MCP, the OAuth connector, REST, web, OAuth) passes: which host a
// request addressed and what it resolves to (one resolver, answers reused for 5 s), its credential
// (`Authorization: Bearer …` or `X-API-Key`), its session cookie (the web's cookie table), its
// client address and per-IP budget, and whom all that makes it on a community. Each face turns
// these into the Caller it hands the pipeline.
import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import { BoundedCache } from '../bounded-cache.ts';
import type { Config } from '../config/config.ts';
import { anonymous, type Actor } from '../domain/actor.ts';
import { isAccessToken, type ConnectorRequest } from '../domain/identity/connector-request.ts';
import { canonicalAddress, RateLimitedError } from '../domain/identity/rate-limit.ts';
import { keyKind } from '../domain/identity/secrets.ts';
import type { OAuthSite } from '../domain/oauth/site.ts';
import {
  resolveCommunityHost,
  visibleResolution,
  type CommunityResolution,
} from '../domain/tenancy.ts';
import { addressedByPath } from '../domain/urls.ts';
import { ownerOf } from '../mcp/engine.ts';
import { header } from '../mcp/http-reply.ts';
import { clientIp, type Admission } from '../mcp/http-transport.ts';
import type { RequestScope } from '../operations/pipeline.ts';
import type { Services } from '../services.ts';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import { sessionToken } from '../web/session.ts';
import { requestHost } from './server.ts';

/** A request's headers, by lower-case name, whatever the face (node:http or Hono). */
export type Headers = (name: string) => string | undefined;

/** What a request presents: a key or access token, a web session, what the connector verified. */
export type Credentials = { key?: string; session?: string; connector?: ConnectorRequest };

/** The key a request carries (`Authorization: Bearer …`, or `X-API-Key`), if any. */
export function credentialOf(headers: Headers): string | undefined {
  return bearerOf(headers) ?? (headers('x-api-key')?.trim() || undefined);
}

/** Only the `Authorization: Bearer …` token (the connector takes nothing else). */
export function bearerOf(headers: Headers): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(headers('authorization') ?? '')?.[1];
}

export const nodeHeaders =
  (req: IncomingMessage): Headers =>
  (name) =>
    header(req, name);
export const honoHeaders =
  (c: Context): Headers =>
  (name) =>
    c.req.header(name);

/** How long a host → community answer is reused. */
const HOST_TTL_MS = 5_000;
/**
 * Host answers kept at most (the least recently used goes first), bounded however many hosts are
 * asked: each holds its community (guidelines included), and an answer is good for 5 s only.
 */
export const MAX_CACHED_HOSTS = 2_000;

export type FrontDoor = ReturnType<typeof createFrontDoor>;

export function createFrontDoor(o: {
  store: Store;
  services: Services;
  config: Config;
  /** Host answers kept at most (default MAX_CACHED_HOSTS). */
  maxHosts?: number;
}) {
  const { store, services, config } = o;
  const secure = config.publicScheme === 'https';
  // Proxies whose X-Forwarded-For is believed: none unless HAMLET_TRUST_PROXY=1.
  const proxyHops = config.trustProxy ? config.trustedProxyHops : 0;
  const hostOf = (headers: Headers) =>
    requestHost(
      { host: headers('host'), 'x-forwarded-host': headers('x-forwarded-host') },
      config.trustProxy,
    );
  const maxHosts = o.maxHosts ?? MAX_CACHED_HOSTS;
  const hosts = new BoundedCache<string, Promise<CommunityResolution>>({
    maxEntries: maxHosts,
    ttlMs: HOST_TTL_MS,
  });
  // A changed community (made private, renamed) is seen at once by the next request here.
  services.communities.onChange.add(() => hosts.clear());

  /** Who `credentials` make a request on `community` (anonymous when none is valid there). */
  async function actorOf(community: Community, credentials: Credentials): Promise<Actor> {
    const { key, session, connector } = credentials;
    if (key) {
      // An access token is only ever good at the connector URL, which verified it for this request.
      if (isAccessToken(key))
        return Promise.resolve()
          .then(() => services.auth.authenticateAccessToken(community, key, connector))
          .catch(() => anonymous);
      const authenticate =
        keyKind(key) === 'user'
          ? services.auth.authenticateUserKey(key)
          : services.auth.authenticateAgentKey(community, key);
      return authenticate.catch(() => anonymous);
    }
    return (await services.accounts.resolveWebSession(session)) ?? anonymous;
  }

  /** What a host resolves to: the network, a community, or nothing (reused for 5 s). */
  async function resolve(headers: Headers): Promise<CommunityResolution> {
    const name = hostOf(headers);
    const key = (name ?? '').toLowerCase();
    const hit = hosts.get(key);
    if (hit) return hit;
    const value = resolveCommunityHost(store, name, config.baseDomain);
    hosts.set(key, value);
    value.catch(() => hosts.delete(key));
    return value;
  }

  /** The community an OAuth request addressed, and its issuer URL as the request reached it. */
  const siteOf = (headers: Headers, slug?: string): Promise<OAuthSite | undefined> =>
    services.oauth.siteFor(hostOf(headers), slug, addressedByPath(headers));

  return {
    secure,
    hostOf,
    resolve,
    actorOf,
    /** Drops cached host answers (a community changed). */
    forget: () => hosts.clear(),
    /** How full the host cache is, and its limit. */
    caches: () => ({ hosts: { size: hosts.size, max: maxHosts } }),
    /** One text per client address on every face (IPv4-mapped IPv6 as IPv4); limits bucket it. */
    addressOf: (req: IncomingMessage) => canonicalAddress(clientIp(req, proxyHops)),
    proxyHops,
    /** The request's key and session cookie, as a web or REST request presents them. */
    credentialsOf: (c: Context): Credentials => ({
      key: credentialOf(honoHeaders(c)),
      session: sessionToken(c, { secure }),
    }),
    /** What the host resolves to for this request: a private community a visitor may not read is unknown. */
    visibleHost: async (c: Context) =>
      visibleResolution(await resolve(honoHeaders(c)), (community) =>
        actorOf(community, {
          key: credentialOf(honoHeaders(c)),
          session: sessionToken(c, { secure }),
        }),
      ),
    siteOf,
    /** siteOf for a node:http request (the OAuth connector URL). */
    siteOfRequest: (req: IncomingMessage, slug?: string) => siteOf(nodeHeaders(req), slug),
    /** The per-IP budget, charged once per JSON-RPC message (batch members included). */
    admitByIp: async (ip: string, messages: number): Promise<Admission> => {
      try {
        await services.rateLimits.checkIp(ip, messages);
        return { ok: true };
      } catch (err) {
        if (err instanceof RateLimitedError)
          return { ok: false, retryAfterSeconds: err.retryAfterSeconds, message: err.message };
        throw err;
      }
    },
    /** An app connected with OAuth keeps its MCP session across token refreshes: its grant owns it. */
    sessionOwner: (credential: string | undefined, context: unknown) => {
      const grant = (context as RequestScope | undefined)?.connector?.actor.client?.grantId;
      return grant ? `grant:${grant}` : ownerOf(credential);
    },
  };
}
