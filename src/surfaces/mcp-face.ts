// Hamlet's MCP face: the engine's stack (sessions in the database, shared over PostgreSQL's
// LISTEN/NOTIFY when several instances serve one) in front of the endpoint resolver, with the front
// door's per-IP admission and credentials, and the live parts (configuration changes, topic updates).
import { unavailableOf } from '../domain/errors.ts';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config/config.ts';
import type { Actor } from '../domain/actor.ts';
import type { ConnectorRequest } from '../domain/identity/connector-request.ts';
import { addressBucket, canonicalAddress } from '../domain/identity/rate-limit.ts';
import type { CommunityResolution } from '../domain/tenancy.ts';
import type { Logger } from '../log.ts';
import { channelBus } from '../mcp/bus.ts';
import type { Admission, AnsweredHook } from '../mcp/http-transport.ts';
import { createMcpStack, type McpStack } from '../mcp/stack.ts';
import { openPgChannel, type PgChannel } from '../store/pg-channel.ts';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { SurfaceDeps } from './calls.ts';
import {
  CACHED_COMMUNITIES,
  CACHED_KEY_CHECKS,
  createEndpointResolver,
  NO_COMMUNITY,
} from './endpoints.ts';
import { CACHED_SLUGS, topicUpdates, watchMcpConfig } from './live.ts';

/** MCP sessions one credential may hold (the longest idle makes room), and event streams per session. */
const SESSIONS_PER_KEY = 50;
const STREAMS_PER_SESSION = 4;

/** What the MCP face needs of the front door (src/http/front-door.ts). */
export type McpDoor = {
  /** What a request's host resolves to (the one cached resolver every face uses). */
  resolve(headers: (name: string) => string | undefined): Promise<CommunityResolution>;
  actorOf(community: Community, c: { key?: string; connector?: ConnectorRequest }): Promise<Actor>;
  admitByIp(ip: string, messages: number): Promise<Admission>;
  sessionOwner(credential: string | undefined, context: unknown): string | undefined;
  forget(): void;
  proxyHops: number;
};

export type McpFace = {
  mcp: McpStack;
  channel?: PgChannel;
  /** How full each of the face's per-community caches is, and its limit. */
  caches(): Record<string, CacheFill>;
  stop(): void;
};

/** A cache's entries now and the most it holds. */
export type CacheFill = { size: number; max: number };

/** Where the MCP face reports what each request came to (the access log and metrics). */
export type McpAccess = {
  mcpAnswered: AnsweredHook;
  mcpCommunity(req: IncomingMessage, slug: string): void;
  mcpActor(req: IncomingMessage, actor: Actor): void;
};

export function createMcpFace(o: {
  config: Config;
  store: Store;
  deps: SurfaceDeps;
  door: McpDoor;
  logger: Logger;
  access?: McpAccess;
  /** Communities whose MCP configuration and surface are kept at most (default CACHED_COMMUNITIES). */
  maxCommunities?: number;
}): McpFace {
  const { config, store, deps, door, logger, access } = o;
  const maxCommunities = o.maxCommunities ?? CACHED_COMMUNITIES;
  const endpoints = createEndpointResolver({
    deps,
    resolveHost: (req: IncomingMessage) =>
      door.resolve((name) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v[0] : v;
      }),
    actorOf: (community, key, scope) =>
      door.actorOf(community, { key, connector: scope.connector }),
    reached: access?.mcpCommunity,
    authenticated: access?.mcpActor,
    maxCommunities,
  });
  // Several instances over one PostgreSQL share session traffic through LISTEN/NOTIFY.
  const channel =
    store.dialect === 'postgres'
      ? openPgChannel(config.databaseUrl, 'hamlet_mcp', {
          onProblem: (p) => logger.warn({ problem: p }, 'MCP bus'),
          connectTimeoutMs: config.postgres.connectTimeoutMs,
        })
      : undefined;
  const mcp = createMcpStack({
    bus: channel ? channelBus(channel, (p) => logger.warn({ problem: p }, 'MCP bus')) : undefined,
    // In the database: a session survives a restart and any instance over the same database serves it.
    sessions: store.mcpSessions,
    logger,
    sessionIdleMs: config.mcp.sessionIdleSeconds * 1000,
    sessionCaps: { perClientIp: config.mcp.sessionsPerAddress, perOwner: SESSIONS_PER_KEY },
    streamCaps: { perClientIp: config.mcp.streamsPerAddress, perSession: STREAMS_PER_SESSION },
    maxBodyBytes: config.mcp.maxBodyBytes,
    maxBatch: config.mcp.maxBatch,
    trustProxy: door.proxyHops,
    // Per-address limits (admission, sessions, event streams) count an IPv6 client by its /64.
    clientAddress: (raw) => ({ address: canonicalAddress(raw), key: addressBucket(raw) }),
    resolve: endpoints.resolve,
    unresolvedMessage: NO_COMMUNITY,
    admit: (ip, messages) => door.admitByIp(ip, messages),
    sessionOwner: door.sessionOwner,
    onAnswered: access?.mcpAnswered,
    // A database that cannot be reached or written is an outage: 503 with Retry-After, not 500.
    unavailable: (err) => unavailableOf(err)?.retryAfterSeconds,
  });
  const stopWatching = watchMcpConfig({
    store,
    mcp,
    forget: (communityId) => {
      endpoints.forget(communityId);
      door.forget();
    },
    logger,
  });
  const topics = topicUpdates(store, mcp);
  deps.services.events.subscribe((event) => {
    void topics
      .notify(event)
      .catch((err: unknown) => logger.warn({ err }, 'resource update notification failed'));
  });
  return {
    mcp,
    channel,
    caches: () => {
      const sizes = endpoints.sizes();
      return {
        mcpConfigs: { size: sizes.configs, max: maxCommunities },
        mcpSurfaces: { size: sizes.surfaces, max: maxCommunities },
        mcpKeyChecks: { size: sizes.readers, max: CACHED_KEY_CHECKS },
        resourceSlugs: { size: topics.cachedSlugs(), max: CACHED_SLUGS },
      };
    },
    stop: () => {
      mcp.stop();
      stopWatching();
    },
  };
}
