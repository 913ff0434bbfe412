// The wiring root, shared by `serve` and the CLI: config → database (store and search index) →
// services → faces (MCP surfaces, REST and web on one HTTP server). The only place adapters are made.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config/config.ts';
import { createLogger, type Logger } from './log.ts';
import { openDatabase, type OpenOptions } from './store/open.ts';
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
import { PostgresRateBuckets } from './store/kysely/rate-buckets.ts';
import type { Kysely } from 'kysely';
import type { Database } from './store/schema.ts';
import { Pipeline } from './operations/pipeline.ts';
import { createFaces } from './http/faces.ts';
import { createFrontDoor, nodeHeaders, type FrontDoor } from './http/front-door.ts';
import { createHttpServer } from './http/server.ts';
import { createConnector } from './http/oauth-connector.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import type { McpStack } from './mcp/stack.ts';
import { readinessCheck } from './store/readiness.ts';
import type { SurfaceDeps } from './surfaces/calls.ts';
import { createMcpFace } from './surfaces/mcp-face.ts';
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
  if (options.demo) await seedDemo(opened);
  const urls = {
    mcp: (slug: string) => communityMcpUrl(config, slug),
    web: (slug: string) => communityOrigin(config, slug),
    inPathForm: <T>(value: T) => toPathForm(config, value),
    listsPathForm: !hasPublicOrigin(config),
  };
  const pipeline = new Pipeline(services, urls, logger);
  const deps: SurfaceDeps = { pipeline, services, urls, version: VERSION, logger };
  const door = createFrontDoor({ store, services, config });
  const { mcp, channel, stop: stopMcp } = createMcpFace({ config, store, deps, door, logger });
  const app = createFaces({
    config,
    services,
    pipeline,
    door,
    logger,
    ready: readinessCheck({
      store,
      listener: channel?.state,
      onProblem: (database, err) => logger.warn({ err, database }, 'not ready: database'),
    }),
    mount: (app) => mountServerCards(app, serverCards(config, door)),
  });
  const connector = createConnector({
    transport: mcp.transport,
    services,
    logger,
    siteOf: (req, slug) => door.siteOf(nodeHeaders(req), slug),
  });
  const server = createHttpServer(app, mcp.transport, logger, {
    baseDomain: config.baseDomain,
    connector: (req, res) => connector(req, res),
  });
  await listen(server, config);
  const dispatcher = startDispatcher(opened, config);
  // With PORT=0 the system picked the port: every URL built from here on names the one served.
  if (config.port === 0) config.port = (server.address() as AddressInfo).port;
  const url = `${config.publicScheme}://${config.baseDomain}:${(server.address() as AddressInfo).port}`;
  logger.info({ url, database: store.dialect }, 'Hamlet is listening');
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopMcp();
      await dispatcher?.stop();
      await closeServer(server);
      await channel?.close();
      await opened.close();
      logger.info('Hamlet stopped');
    })());
  if (options.handleSignals ?? true) onSignals(logger, close);
  return { server, store, services, logger, mcp, url, close };
}

async function seedDemo({ store, services, logger }: Opened): Promise<void> {
  const { ensureDemoCommunity } = await import('./demo/demo.ts');
  const demo = await ensureDemoCommunity(store, services);
  logger.info({ demo }, demo.created ? 'demo communities created' : 'demo community already there');
}

/** The MCP server cards' origins and the community a card's host names. */
function serverCards(config: Config, door: FrontDoor) {
  return {
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

async function listen(server: Server, config: Config): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
}

/**
 * Webhooks: any number of instances may dispatch (each delivery is claimed by one); a local commit
 * wakes this one at once, others pick it up at their next poll.
 */
function startDispatcher({ store, services, logger }: Opened, config: Config) {
  if (!config.webhooks.dispatch) return undefined;
  const dispatcher = new WebhookDispatcher({ store, services, settings: config.webhooks, logger });
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
