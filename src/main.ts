// The wiring root, shared by `serve` and the CLI: config → database (store and search index) →
// services → faces (MCP surfaces, REST and web on one HTTP server). The only place adapters are made.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config/config.ts';
import { createLogger, type Logger } from './log.ts';
import { openDatabase, type OpenOptions, type PoolStats } from './store/open.ts';
import type { Store } from './store/repositories.ts';
import { createSearchIndex } from './search/engine.ts';
import { semanticSearch } from './search/embeddings.ts';
import { createServices, type Services } from './services.ts';
import {
  communityMcpUrl,
  communityOrigin,
  hasPublicOrigin,
  listedOrigin,
  toPathForm,
} from './domain/urls.ts';
import { SharedLimiter, TokenBucketLimiter } from './domain/identity/rate-limit.ts';
import { CountedBuckets } from './store/kysely/counted-buckets.ts';
import { PostgresRateBuckets } from './store/kysely/rate-buckets.ts';
import type { Kysely } from 'kysely';
import type { Database } from './store/schema.ts';
import { Pipeline } from './operations/pipeline.ts';
import { readRouting, standbysOf, type ReadRouting } from './operations/read-routing.ts';
import { createFaces } from './http/faces.ts';
import { createFrontDoor, type FrontDoor } from './http/front-door.ts';
import { createHttpServer } from './http/server.ts';
import { createAccessLog } from './http/access-log.ts';
import { startMetricsServer } from './http/metrics-endpoint.ts';
import { createMetrics, type Metrics } from './http/metrics.ts';
import { createConnector } from './http/oauth-connector.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { RetentionSweep } from './domain/retention.ts';
import { startMail } from './domain/mail/start.ts';
import type { McpStack } from './mcp/stack.ts';
import { readinessCheck } from './store/readiness.ts';
import type { SurfaceDeps } from './surfaces/calls.ts';
import { createMcpFace, type CacheFill } from './surfaces/mcp-face.ts';
import { mountServerCards } from './surfaces/server-card.ts';
import { VERSION } from './version.ts';
import { listenOn } from './http/listen.ts';
import { logMigrations } from './store/migrations/index.ts';

export { VERSION } from './version.ts';

/** The database and the services over it: what every command works with. */
export type Opened = {
  store: Store;
  services: Services;
  logger: Logger;
  poolStats?: () => PoolStats;
  /** With PostgreSQL standbys (HAMLET_DATABASE_REPLICA_URL): which services each operation runs on. */
  reads?: ReadRouting;
  close(): Promise<void>;
};

export async function openHamlet(
  config: Config,
  options: OpenOptions & { logger?: Logger; metrics?: Metrics; sitemapUrlsPerFile?: number } = {},
): Promise<Opened> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const { store, db, dialect, poolStats, replicas } = await openDatabase(config.databaseUrl, {
    sqliteSynchronous: config.sqliteSynchronous,
    poolSize: config.postgres.poolSize,
    connectTimeoutMs: config.postgres.connectTimeoutMs,
    onConnectionError: (err) => logger.warn({ err }, 'PostgreSQL connection lost; reconnecting'),
    replicas: standbysOf(config, logger),
    ...options,
  });
  // Semantic/hybrid search only with HAMLET_EMBEDDINGS_*: post vectors are filled in the background.
  const semantic = semanticSearch(config, db, (p) =>
    logger.debug({ embeddings: p }, 'search: post embeddings filled'),
  );
  const shared = dialect === 'postgres' ? sharedLimiter(db, logger) : undefined;
  const servicesOver = (
    over: { store: Store; db: Kysely<Database> },
    events?: Services['events'],
  ) =>
    createServices({
      store: over.store,
      searchIndex: createSearchIndex(over.db, dialect, {
        onWorkerFailure: (reason) =>
          logger.warn({ reason }, 'search worker failed; searching on the main thread for now'),
      }),
      config,
      logger,
      search: { ...semantic?.options, observe: options.metrics?.search },
      limiter: shared?.limiter,
      sitemapUrlsPerFile: options.sitemapUrlsPerFile,
      events,
    });
  const services = servicesOver({ store, db });
  const ranking = services.search.index.ranking;
  if (ranking?.kind === 'fts5')
    logger.warn(
      { reason: ranking.reason },
      "SQLite search ranks with FTS5's bm25 (every community's statistics together): Hamlet's ranking function is not available",
    );
  // With standbys, reads run on a second set of services over the replica-routing store.
  const reads = replicas
    ? readRouting(services, servicesOver(replicas, services.events), replicas.writers)
    : undefined;
  return {
    store,
    services,
    logger,
    poolStats,
    reads,
    close: async () => {
      await semantic?.stop();
      await shared?.close().catch(() => undefined);
      await store.close();
    },
  };
}

export type Hamlet = Opened & {
  /** The configuration served: the one given, with the port actually served (PORT=0: the system's pick). */
  config: Readonly<Config>;
  server: Server;
  mcp: McpStack;
  url: string;
  /** How full each per-community cache of the instance is, and the most it holds. */
  caches(): Record<string, CacheFill>;
  /** The metrics' own server (HAMLET_METRICS_PORT), if any. */
  metricsServer?: Server;
};

export type StartOptions = {
  demo?: boolean;
  /** Where logs go (default stdout). */
  logDestination?: NodeJS.WritableStream;
  /** Install SIGTERM/SIGINT handlers for graceful shutdown (default true). */
  handleSignals?: boolean;
  /** Apply pending migrations first (default true); false refuses a schema at another version. */
  migrate?: boolean;
  /** Smaller limits for the per-community caches than their defaults (tests fill them cheaply). */
  cacheLimits?: { hosts?: number; communities?: number };
  /** URLs per sitemap file, smaller than the default 50,000 (tests page with a few rows). */
  sitemapUrlsPerFile?: number;
};

export async function startHamlet(
  given: Readonly<Config>,
  options: StartOptions = {},
): Promise<Hamlet> {
  // Built on its own copy (the caller's is never changed), whose port listen() hands in.
  const config: Config = { ...given };
  const logger = createLogger(config.logLevel, options.logDestination);
  const metrics = metricsOf(config);
  const opened = await openHamlet(config, {
    logger,
    metrics,
    migrate: options.migrate ?? true,
    requireCurrentSchema: true,
    onMigrated: logMigrations(logger, config.databaseUrl.startsWith('sqlite:')),
    sitemapUrlsPerFile: options.sitemapUrlsPerFile,
  });
  const { store, services } = opened;
  if (options.demo) await seedDemo(opened, config);
  const urls = urlsOf(config);
  const pipeline = new Pipeline(services, urls, logger, opened.reads);
  const deps: SurfaceDeps = { pipeline, services, urls, version: VERSION, logger };
  const limits = options.cacheLimits ?? {};
  const door = createFrontDoor({ store, services, config, maxHosts: limits.hosts });
  const access = createAccessLog(logger, metrics, config.trustedProxies);
  const mcpFace = createMcpFace({
    config,
    store,
    deps,
    door,
    logger,
    access,
    maxCommunities: limits.communities,
  });
  const { mcp, channel } = mcpFace;
  const app = createFaces({
    config,
    services,
    pipeline,
    door,
    logger,
    accessLog: access,
    metrics,
    ready: readinessCheck({ store, listener: channel?.state, onProblem: notReady(logger) }),
    mount: (app) => mountServerCards(app, serverCards(config, door, services)),
  });
  const connector = createConnector({
    transport: mcp.transport,
    services,
    logger,
    siteOf: door.siteOfRequest,
  });
  const server = createHttpServer(app, mcp.transport, logger, {
    baseDomain: config.baseDomain,
    connector,
    access,
    addressOf: door.addressOf,
  });
  config.port = await listen(server, config, async () => {
    mcpFace.stop();
    await channel?.close();
    await opened.close();
  });
  // Maintenance mode is read before the first request is served, then every few seconds.
  await services.maintenance.start();
  const workers = startWorkers(opened, config, metrics);
  const metricsServer = await observeInstance(metrics, opened, mcp, config);
  const url = `${config.publicScheme}://${config.baseDomain}:${config.port}`;
  logger.info({ url, database: store.dialect }, 'Hamlet is listening');
  const close = once(async () => {
    mcpFace.stop();
    await workers.stop();
    await closeServer(server);
    if (metricsServer) await closeServer(metricsServer);
    await channel?.close();
    await opened.close();
    logger.info('Hamlet stopped');
  });
  if (options.handleSignals ?? true) onSignals(logger, close);
  const caches = () => ({ ...door.caches(), ...mcpFace.caches() });
  return { config, server, store, services, logger, mcp, url, metricsServer, caches, close };
}

/** `run` started at the first call; every later call gets the same promise. */
function once(run: () => Promise<void>): () => Promise<void> {
  let started: Promise<void> | undefined;
  return () => (started ??= run());
}

/** Metrics are kept only where they can be read: with a token for /metrics, or their own port. */
function metricsOf(config: Config): Metrics {
  return createMetrics(Boolean(config.metrics.token) || config.metrics.port !== undefined);
}

/** How a failed readiness probe is logged. */
function notReady(logger: Logger) {
  return (database: string, err: unknown) => logger.warn({ err, database }, 'not ready: database');
}

/** The instance's background work: webhook deliveries, outbound mail, old rows deleted in bounded
 * batches on a timer (idempotency records, expired sessions, …), topic views written every 10 s. */
function startWorkers(opened: Opened, config: Config, metrics: Metrics) {
  const { store, services, logger } = opened;
  const dispatcher = startDispatcher(opened, config, metrics);
  const mail = startMail({ store, services, config: config.mail, urls: config, logger });
  const retention = new RetentionSweep({
    retention: store.retention,
    settings: config.retention,
    logger,
  });
  retention.start();
  services.reading.views.start(10_000);
  return {
    // Every worker stops claiming at once; mail and webhook sends in flight get
    // HAMLET_SEND_STOP_WAIT_MS, then are given up and left for another instance.
    async stop() {
      services.maintenance.stop();
      await Promise.all([
        services.reading.views.stop(),
        dispatcher?.stop(config.sendStopWaitMs),
        retention.stop(),
        mail?.stop(config.sendStopWaitMs),
      ]);
    },
  };
}

/** The community URLs every face presents (canonical, or in the path form a request came in). */
function urlsOf(config: Config): SurfaceDeps['urls'] {
  return {
    mcp: (slug: string) => communityMcpUrl(config, slug),
    web: (slug: string) => communityOrigin(config, slug),
    inPathForm: <T>(value: T) => toPathForm(config, value),
    listsPathForm: !hasPublicOrigin(config),
  };
}

/** The gauges read at scrape time; the metrics' own port when one is set. */
async function observeInstance(
  metrics: Metrics,
  opened: Opened,
  mcp: { streams: { openCount: number } },
  config: Config,
) {
  const { store, logger } = opened;
  metrics.observe({
    sessions: () => store.mcpSessions.count(),
    openStreams: () => mcp.streams.openCount,
    webhookQueue: () => store.webhookQueue.pendingCount(),
    mailQueue: () => store.mail.counts(),
    pool: opened.poolStats,
  });
  return metrics.registry && config.metrics.port !== undefined
    ? startMetricsServer(metrics.registry, config.metrics.port, config.host, logger)
    : undefined;
}

async function seedDemo({ store, services, logger }: Opened, config: Config): Promise<void> {
  const { ensureDemoCommunity } = await import('./demo/demo.ts');
  const demo = await ensureDemoCommunity(store, services, config);
  logger.info({ demo }, demo.created ? 'demo communities created' : 'demo community already there');
}

/** The MCP server cards' origins and the community a card's host names. */
function serverCards(config: Config, door: FrontDoor, services: Services) {
  return {
    publicCommunities: (cursor: string | undefined, limit: number) =>
      services.communities.listPublic({ cursor, limit }),
    origin: (slug: string | null) => listedOrigin(config, slug),
    baseDomain: config.baseDomain,
    version: VERSION,
    communityOf: async (host: string | undefined, forwarded: string | undefined) => {
      const r = await door.resolve((name) =>
        name === 'host' ? host : name === 'x-forwarded-host' ? forwarded : undefined,
      );
      return r.kind === 'community' ? r.community : r.kind === 'network' ? null : undefined;
    },
  };
}

/**
 * Listens on the configured port and returns the port served (with PORT=0 the system picks it).
 * A port that cannot be had (taken, not permitted) releases what was opened before the error goes
 * on, so a caller may try another.
 */
async function listen(
  server: Server,
  config: Readonly<Config>,
  release: () => Promise<void>,
): Promise<number> {
  try {
    await listenOn(server, config.port, config.host);
  } catch (err) {
    await release();
    throw err;
  }
  return (server.address() as AddressInfo).port;
}

/**
 * Webhooks: any number of instances may dispatch (each delivery is claimed by one); a local commit
 * wakes this one at once, others pick it up at their next poll.
 */
function startDispatcher({ store, services, logger }: Opened, config: Config, metrics: Metrics) {
  if (!config.webhooks.dispatch) return undefined;
  const dispatcher = new WebhookDispatcher({
    store,
    services,
    settings: config.webhooks,
    logger,
    metrics,
  });
  dispatcher.start();
  services.events.subscribe(() => dispatcher.wake());
  return dispatcher;
}

async function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // Open SSE streams would hold the server forever: end them after a grace period.
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  });
}

function onSignals(logger: Logger, close: () => Promise<void>): void {
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

/**
 * Several instances may serve one PostgreSQL: their rate limits are counted there, together. Each
 * instance counts in memory and settles its counts there once a second, in one statement, so that a
 * request costs no write (counted-buckets.ts); each limits on its own while the database cannot
 * count (said once a minute).
 */
function sharedLimiter(db: Kysely<Database>, logger: Logger) {
  let warnedAt = 0;
  const warn = (err: unknown) => {
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    logger.warn({ err }, 'shared rate limits unavailable; limiting locally');
  };
  const counted = new CountedBuckets(new PostgresRateBuckets(db), { onError: warn });
  return {
    limiter: new SharedLimiter(counted, new TokenBucketLimiter(), warn),
    close: () => counted.close(),
  };
}
