// The wiring root, shared by `serve` and the CLI: config → database (store and search index) →
// services → faces (MCP surfaces, REST and web on one HTTP server). The only place adapters are made.
import type { Context } from 'hono';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config/config.ts';
import { createLogger, type Logger } from './log.ts';
import { openDatabase, type OpenOptions } from './store/open.ts';
import type { Store } from './store/repositories.ts';
import { createSearchIndex } from './search/engine.ts';
import { semanticSearch } from './search/embeddings.ts';
import { createServices, type Services } from './services.ts';
import {
  resolveCommunityHost,
  visibleResolution,
  type CommunityResolution,
} from './domain/tenancy.ts';
import { anonymous, type Actor } from './domain/actor.ts';
import { keyKind } from './domain/identity/secrets.ts';
import type { Community } from './store/types.ts';
import { communityMcpUrl, communityOrigin } from './domain/urls.ts';
import {
  addressBucket,
  canonicalAddress,
  RateLimitedError,
  SharedLimiter,
  TokenBucketLimiter,
} from './domain/identity/rate-limit.ts';
import { PostgresRateBuckets } from './store/kysely/rate-buckets.ts';
import type { Kysely } from 'kysely';
import type { Database } from './store/schema.ts';
import { Pipeline } from './operations/pipeline.ts';
import { COMMUNITY_OPERATIONS, NETWORK_OPERATIONS } from './operations/catalogue.ts';
import { createApp } from './http/app.ts';
import { llmsSections, renderLlms } from './http/llms.ts';
import { createHttpServer, requestHost } from './http/server.ts';
import { mountWeb } from './web/routes.ts';
import { handoffOffer, mountHandoff } from './web/pages/handoff.ts';
import { mountOAuth } from './http/oauth.ts';
import { createConnector } from './http/oauth-connector.ts';
import { currentConnectorRequest, isAccessToken } from './domain/oauth/connector-context.ts';
import { ownerOf } from './mcp/engine.ts';
import { mountRest } from './http/rest/mount.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { sessionToken } from './web/session.ts';
import { channelBus } from './mcp/bus.ts';
import { createMcpStack, type McpStack } from './mcp/stack.ts';
import { clientIp, type Admission } from './mcp/http-transport.ts';
import { openPgChannel } from './store/pg-channel.ts';
import { readinessCheck } from './store/readiness.ts';
import { createEndpointResolver, NO_COMMUNITY } from './surfaces/endpoints.ts';
import type { SurfaceDeps } from './surfaces/calls.ts';
import { topicUpdates, watchMcpConfig } from './surfaces/live.ts';
import { mountServerCards } from './surfaces/server-card.ts';
import { VERSION } from './version.ts';

export { VERSION } from './version.ts';

/** The database and the services over it: what every command works with. */
export type Opened = { store: Store; services: Services; logger: Logger; close(): Promise<void> };

export async function openHamlet(
  config: Config,
  options: OpenOptions & { logger?: Logger } = {},
): Promise<Opened> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const { store, db, dialect } = await openDatabase(config.databaseUrl, {
    sqliteSynchronous: config.sqliteSynchronous,
    poolSize: config.postgres.poolSize,
    connectTimeoutMs: config.postgres.connectTimeoutMs,
    onConnectionError: (err) => logger.warn({ err }, 'PostgreSQL connection lost; reconnecting'),
    ...options,
  });
  // Semantic/hybrid search only with HAMLET_EMBEDDINGS_*: post vectors are filled in the background.
  const semantic = semanticSearch(config, db, (p) =>
    logger.debug({ embeddings: p }, 'search: post embeddings filled'),
  );
  const limiter = dialect === 'postgres' ? sharedLimiter(db, logger) : undefined;
  const services = createServices({
    store,
    searchIndex: createSearchIndex(db, dialect),
    config,
    logger,
    search: semantic?.options,
    limiter,
  });
  return {
    store,
    services,
    logger,
    close: async () => {
      await semantic?.stop();
      await store.close();
    },
  };
}

export type Hamlet = Opened & { server: Server; mcp: McpStack; url: string };

export type StartOptions = {
  demo?: boolean;
  /** Where logs go (default stdout). */
  logDestination?: NodeJS.WritableStream;
  /** Install SIGTERM/SIGINT handlers for graceful shutdown (default true). */
  handleSignals?: boolean;
};

export async function startHamlet(config: Config, options: StartOptions = {}): Promise<Hamlet> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const opened = await openHamlet(config, { logger });
  const { store, services } = opened;
  if (options.demo) {
    const { ensureDemoCommunity } = await import('./demo/demo.ts');
    const demo = await ensureDemoCommunity(store, services);
    logger.info(
      { demo },
      demo.created ? 'demo communities created' : 'demo community already there',
    );
  }

  // Proxies whose X-Forwarded-For is believed: none unless HAMLET_TRUST_PROXY=1.
  const proxyHops = config.trustProxy ? config.trustedProxyHops : 0;
  // One text per client address on every face (IPv4-mapped IPv6 as IPv4); limits bucket it.
  const addressOf = (req: IncomingMessage) => canonicalAddress(clientIp(req, proxyHops));
  const urls = {
    mcp: (slug: string) => communityMcpUrl(config, slug),
    web: (slug: string) => communityOrigin(config, slug),
  };
  const deps: SurfaceDeps = {
    pipeline: new Pipeline(services, urls, logger),
    services,
    urls,
    version: VERSION,
    logger,
  };
  const endpoints = createEndpointResolver({
    deps,
    lookup: (host) => resolveCommunityHost(store, host, config.baseDomain),
    hostOf: (req) => requestHost(req.headers, config.trustProxy),
    actorOf: (community, key) => requestActor(services, community, { key }),
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
    trustProxy: proxyHops,
    // Per-address limits (admission, sessions, event streams) count an IPv6 client by its /64.
    clientAddress: (raw) => ({ address: canonicalAddress(raw), key: addressBucket(raw) }),
    resolve: endpoints.resolve,
    unresolvedMessage: NO_COMMUNITY,
    admit: (ip, messages) => admitByIp(services, ip, messages),
    // An app connected with OAuth keeps its session across token refreshes: its grant owns it.
    sessionOwner: (credential) => {
      const grant = currentConnectorRequest()?.actor.client?.grantId;
      return grant ? `grant:${grant}` : ownerOf(credential);
    },
  });
  const stopWatching = watchMcpConfig({ store, mcp, forget: endpoints.forget, logger });
  const notifyTopic = topicUpdates(store, mcp);
  services.events.subscribe((event) => {
    void notifyTopic(event).catch((err: unknown) =>
      logger.warn({ err }, 'resource update notification failed'),
    );
  });

  const docs = llmsSections({
    networkOrigin: communityOrigin(config, null),
    communityOriginPattern: communityOrigin(config, '<slug>'),
    communityTools: COMMUNITY_OPERATIONS.filter((op) => op.mcp),
    networkTools: NETWORK_OPERATIONS.filter((op) => op.mcp),
  });
  const secure = config.publicScheme === 'https';
  // The host a web request addressed: X-Forwarded-Host only behind a trusted proxy.
  const hostOf = (c: Context) =>
    requestHost(
      { host: c.req.header('host'), 'x-forwarded-host': c.req.header('x-forwarded-host') },
      config.trustProxy,
    );
  const handoff = { services, secure, hostOf, baseDomain: config.baseDomain };
  const webHost = (host: string | undefined, forwarded: string | undefined) =>
    resolveCommunityHost(
      store,
      requestHost({ host, 'x-forwarded-host': forwarded }, config.trustProxy),
      config.baseDomain,
    );
  // The community an OAuth request addressed, and its issuer URL as the request reached it.
  const oauthSite = (host: string | undefined, forwarded: string | undefined, slug?: string) =>
    services.oauth.siteFor(
      requestHost({ host, 'x-forwarded-host': forwarded }, config.trustProxy),
      slug,
    );
  // For REST and the host check every request passes: answers reused for 5 s, as the MCP endpoints do.
  const hosts = new Map<string, { at: number; value: Promise<CommunityResolution> }>();
  const cachedHost = (host: string | undefined, forwarded: string | undefined) => {
    const name = requestHost({ host, 'x-forwarded-host': forwarded }, config.trustProxy);
    const key = (name ?? '').toLowerCase();
    const hit = hosts.get(key);
    if (hit && Date.now() - hit.at < 5_000) return hit.value;
    if (hosts.size > 10_000) hosts.clear();
    const value = resolveCommunityHost(store, name, config.baseDomain);
    hosts.set(key, { at: Date.now(), value });
    value.catch(() => hosts.delete(key));
    return value;
  };
  const app = createApp({
    logger,
    ready: readinessCheck({
      store,
      listener: channel?.state,
      onProblem: (database, err) => logger.warn({ err, database }, 'not ready: database'),
    }),
    // A private community looks like an unknown host to a request without a credential that reads it.
    hostKind: async (c) => {
      const resolved = await cachedHost(c.req.header('host'), c.req.header('x-forwarded-host'));
      const credential = {
        key: keyOf((name) => c.req.header(name)),
        session: sessionToken(c, { secure }),
      };
      return (
        await visibleResolution(resolved, (community) =>
          requestActor(services, community, credential),
        )
      ).kind;
    },
    clientIp: addressOf,
    secure,
    // A private community's members reach its own host through the apex's account: the unknown-host
    // page (which a private host shows visitors) offers it (./web/pages/handoff.ts).
    unknownHostExtra: (c) => handoffOffer(c, handoff),
    open: (app) => {
      mountOAuth(app, {
        services,
        siteOf: oauthSite,
        clientIp: (req) => (req ? addressOf(req) : 'unknown'),
        actorOf: (c, community) =>
          requestActor(services, community, {
            key: keyOf((name) => c.req.header(name)),
            session: sessionToken(c, { secure }),
          }),
      });
      mountHandoff(app, handoff);
    },
    mount: (app) => {
      mountServerCards(app, {
        origin: (slug) => communityOrigin(config, slug),
        baseDomain: config.baseDomain,
        version: VERSION,
        communityOf: async (host, forwarded) => {
          const r = await webHost(host, forwarded);
          return r.kind === 'community' ? r.community : r.kind === 'network' ? null : undefined;
        },
      });
      mountRest(app, {
        pipeline: deps.pipeline,
        services,
        logger,
        resolve: (header) => cachedHost(header('host'), header('x-forwarded-host')),
        clientIp: (c) => addressOf((c.env as { incoming: IncomingMessage }).incoming),
        origin: (slug) => communityOrigin(config, slug),
        maxBodyBytes: config.rest.maxBodyBytes,
        rateLimits: config.rateLimits,
      });
      mountWeb(app, {
        services,
        pipeline: deps.pipeline,
        hostKind: webHost,
        hostOf,
        baseDomain: config.baseDomain,
        clientIp: (c) =>
          (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
            ? addressOf((c.env as { incoming: IncomingMessage }).incoming)
            : 'unknown',
        secure,
      });
    },
    llms: (section) => renderLlms(docs, section),
  });
  const connector = createConnector({
    transport: mcp.transport,
    services,
    logger,
    siteOf: (req, slug) =>
      oauthSite(req.headers.host, req.headers['x-forwarded-host'] as string | undefined, slug),
  });
  const server = createHttpServer(app, mcp.transport, logger, {
    baseDomain: config.baseDomain,
    connector: (req, res) => connector(req, res),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  // Webhooks: any number of instances may dispatch (each delivery is claimed by one); a local
  // commit wakes this one at once, others pick it up at their next poll.
  const dispatcher = config.webhooks.dispatch
    ? new WebhookDispatcher({ store, services, settings: config.webhooks, logger })
    : undefined;
  dispatcher?.start();
  if (dispatcher) services.events.subscribe(() => dispatcher.wake());
  const port = (server.address() as AddressInfo).port;
  const url = `${config.publicScheme}://${config.baseDomain}:${port}`;
  logger.info({ url, database: store.dialect }, 'Hamlet is listening');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      mcp.stop();
      stopWatching();
      await dispatcher?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Open SSE streams would hold the server forever: end them after a grace period.
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
      await channel?.close();
      await opened.close();
      logger.info('Hamlet stopped');
    })());

  if (options.handleSignals ?? true) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        logger.info({ signal }, 'shutting down');
        close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
    }
  }
  return { server, store, services, logger, mcp, url, close };
}

/** MCP sessions one credential may hold (the longest idle makes room), and event streams per session. */
const SESSIONS_PER_KEY = 50;
const STREAMS_PER_SESSION = 4;

/**
 * Several instances may serve one PostgreSQL: their rate limits are counted there, together (each
 * instance limits on its own while the database cannot count; said once a minute).
 */
function sharedLimiter(db: Kysely<Database>, logger: Logger): SharedLimiter {
  let warnedAt = 0;
  return new SharedLimiter(new PostgresRateBuckets(db), new TokenBucketLimiter(), (err) => {
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    logger.warn({ err }, 'shared rate limits unavailable; limiting locally');
  });
}

/** The key a request carries (`Authorization: Bearer …`, or `X-API-Key`), if any. */
function keyOf(header: (name: string) => string | undefined): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header('authorization') ?? '')?.[1];
  return bearer ?? (header('x-api-key')?.trim() || undefined);
}

/**
 * Who a request's credential makes it on `community`: the agent of an agent key of that community,
 * the person of a user key or of a web session; anonymous without one or with one not valid there.
 */
async function requestActor(
  services: Services,
  community: Community,
  credential: { key?: string; session?: string },
): Promise<Actor> {
  const { key, session } = credential;
  if (key) {
    // An access token is only ever good at the connector URL, which verified it for this request.
    if (isAccessToken(key))
      return Promise.resolve()
        .then(() => services.auth.authenticateAccessToken(community, key))
        .catch(() => anonymous);
    const authenticate =
      keyKind(key) === 'user'
        ? services.auth.authenticateUserKey(key)
        : services.auth.authenticateAgentKey(community, key);
    return authenticate.catch(() => anonymous);
  }
  return (await services.accounts.resolveWebSession(session)) ?? anonymous;
}

/** The per-IP budget, charged once per JSON-RPC message (batch members included). */
async function admitByIp(services: Services, ip: string, messages: number): Promise<Admission> {
  try {
    await services.rateLimits.checkIp(ip, messages);
    return { ok: true };
  } catch (err) {
    if (err instanceof RateLimitedError)
      return { ok: false, retryAfterSeconds: err.retryAfterSeconds, message: err.message };
    throw err;
  }
}
