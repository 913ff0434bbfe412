// The wiring root, shared by `serve` and the CLI: config → database (store and search index) →
// services → faces (MCP surfaces, REST and web on one HTTP server). The only place adapters are made.
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config/config.ts';
import { createLogger, type Logger } from './log.ts';
import { openDatabase, type OpenOptions } from './store/open.ts';
import type { Store } from './store/repositories.ts';
import { createSearchIndex } from './search/engine.ts';
import { semanticSearch } from './search/embeddings.ts';
import { createServices, type Services } from './services.ts';
import { resolveCommunityHost } from './domain/tenancy.ts';
import { communityMcpUrl, communityOrigin } from './domain/urls.ts';
import { RateLimitedError } from './domain/identity/rate-limit.ts';
import { Pipeline } from './operations/pipeline.ts';
import { COMMUNITY_OPERATIONS, NETWORK_OPERATIONS } from './operations/catalogue.ts';
import { createApp } from './http/app.ts';
import { llmsSections, renderLlms } from './http/llms.ts';
import { createHttpServer, requestHost } from './http/server.ts';
import { mountWeb } from './web/routes.ts';
import { channelBus } from './mcp/bus.ts';
import { createMcpStack, type McpStack } from './mcp/stack.ts';
import { clientIp, type Admission } from './mcp/http-transport.ts';
import { openPgChannel } from './store/pg-channel.ts';
import { createEndpointResolver, NO_COMMUNITY } from './surfaces/endpoints.ts';
import type { SurfaceDeps } from './surfaces/calls.ts';
import { topicUpdates, watchMcpConfig } from './surfaces/live.ts';
import { mountServerCards } from './surfaces/server-card.ts';
import { VERSION } from './version.ts';

export { VERSION } from './version.ts';

/** The database and the services over it: what every command works with. */
export type Opened = { store: Store; services: Services; logger: Logger; close(): Promise<void> };

export async function openHamlet(config: Config, options: OpenOptions & { logger?: Logger } = {}): Promise<Opened> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const { store, db, dialect } = await openDatabase(config.databaseUrl, options);
  // Semantic/hybrid search only with HAMLET_EMBEDDINGS_*: post vectors are filled in the background.
  const semantic = semanticSearch(config, db, (p) => logger.debug({ embeddings: p }, 'search: post embeddings filled'));
  const services = createServices({ store, searchIndex: createSearchIndex(db, dialect), config, logger, search: semantic?.options });
  return { store, services, logger, close: async () => { await semantic?.stop(); await store.close(); } };
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
    logger.info({ demo }, demo.created ? 'demo communities created' : 'demo community already there');
  }

  const urls = { mcp: (slug: string) => communityMcpUrl(config, slug), web: (slug: string) => communityOrigin(config, slug) };
  const deps: SurfaceDeps = { pipeline: new Pipeline(services, urls, logger), services, urls, version: VERSION, logger };
  const endpoints = createEndpointResolver({
    deps,
    lookup: (host) => resolveCommunityHost(store, host, config.baseDomain),
    hostOf: (req) => requestHost(req.headers, config.trustProxy),
  });
  // Several instances over one PostgreSQL share session traffic through LISTEN/NOTIFY.
  const channel = store.dialect === 'postgres' ? openPgChannel(config.databaseUrl, 'hamlet_mcp', (p) => logger.warn({ problem: p }, 'MCP bus')) : undefined;
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
    trustProxy: config.trustProxy,
    resolve: endpoints.resolve,
    unresolvedMessage: NO_COMMUNITY,
    admit: (ip, messages) => admitByIp(services, ip, messages),
  });
  const stopWatching = watchMcpConfig({ store, mcp, forget: endpoints.forget, logger });
  const notifyTopic = topicUpdates(store, mcp);
  services.events.subscribe((event) => {
    void notifyTopic(event).catch((err: unknown) => logger.warn({ err }, 'resource update notification failed'));
  });

  const docs = llmsSections({
    networkOrigin: communityOrigin(config, null),
    communityOriginPattern: communityOrigin(config, '<slug>'),
    communityTools: COMMUNITY_OPERATIONS.filter((op) => op.mcp),
    networkTools: NETWORK_OPERATIONS.filter((op) => op.mcp),
  });
  // The host a web request addressed: X-Forwarded-Host only behind a trusted proxy.
  const webHost = (host: string | undefined, forwarded: string | undefined) =>
    resolveCommunityHost(store, requestHost({ host, 'x-forwarded-host': forwarded }, config.trustProxy), config.baseDomain);
  const app = createApp({
    logger,
    ready: () => store.ping().then(() => true),
    hostKind: async (host, forwarded) => (await webHost(host, forwarded)).kind,
    secure: config.publicScheme === 'https',
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
      mountWeb(app, {
        services,
        pipeline: deps.pipeline,
        hostKind: webHost,
        communityBySlug: (slug) => store.communities.getBySlug(slug),
        clientIp: (c) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming ? clientIp((c.env as { incoming: IncomingMessage }).incoming, config.trustProxy) : 'unknown',
        secure: config.publicScheme === 'https',
      });
    },
    llms: (section) => renderLlms(docs, section),
  });
  const server = createHttpServer(app, mcp.transport, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${config.publicScheme}://${config.baseDomain}:${port}`;
  logger.info({ url, database: store.dialect }, 'Hamlet is listening');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      mcp.stop();
      stopWatching();
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
        close().then(() => process.exit(0), () => process.exit(1));
      });
    }
  }
  return { server, store, services, logger, mcp, url, close };
}

/** MCP sessions one credential may hold (the longest idle makes room), and event streams per session. */
const SESSIONS_PER_KEY = 50;
const STREAMS_PER_SESSION = 4;

/** The per-IP budget, charged once per JSON-RPC message (batch members included). */
function admitByIp(services: Services, ip: string, messages: number): Admission {
  try {
    services.rateLimits.checkIp(ip, messages);
    return { ok: true };
  } catch (err) {
    if (err instanceof RateLimitedError) return { ok: false, retryAfterSeconds: err.retryAfterSeconds, message: err.message };
    throw err;
  }
}
