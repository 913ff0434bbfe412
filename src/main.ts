// Wiring: config → store → services → HTTP. The only place that creates adapters.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config/config.ts';
import { createLogger, type Logger } from './log.ts';
import { openDatabase } from './store/open.ts';
import { createSearchIndex } from './search/engine.ts';
import type { Store } from './store/repositories.ts';
import { resolveCommunityHost } from './domain/tenancy.ts';
import { createApp } from './http/app.ts';
import { mountWeb } from './web/routes.ts';
import { llmsSections, renderLlms } from './http/llms.ts';
import { communityOrigin } from './domain/urls.ts';
import { communityTools } from './mcp/surfaces/community.ts';
import { networkTools } from './mcp/surfaces/network.ts';
import { createHttpServer, requestHost } from './http/server.ts';
import { channelBus } from './mcp/bus.ts';
import { createMcpStack, type McpStack } from './mcp/stack.ts';
import { openPgChannel } from './store/pg-channel.ts';
import { createEndpointResolver } from './mcp/surfaces/endpoints.ts';
import { ContentService } from './domain/content.ts';
import { ContentEvents } from './domain/events.ts';
import { createIdentityServices } from './domain/identity/index.ts';
import { SearchService } from './search/service.ts';
import { admitByIp, notifyTopicChanged, surfaceDeps, watchMcpConfig } from './wiring.ts';
import { CommunityMcpService } from './domain/community-mcp.ts';

export { VERSION } from './version.ts';

/** A stand-in community for documenting the community tools (their definitions do not depend on it). */
const DOC_COMMUNITY = { id: '', slug: '<slug>', name: 'a community', description: '', guidelines: '', visibility: 'public', customDomain: null, createdAt: '', updatedAt: '' } as const;

export type Hamlet = {
  server: Server;
  store: Store;
  mcp: McpStack;
  logger: Logger;
  url: string;
  services: { content: ContentService; identity: ReturnType<typeof createIdentityServices>; search: SearchService; mcpConfig: CommunityMcpService };
  close(): Promise<void>;
};

export type StartOptions = {
  demo?: boolean;
  /** Where logs go (default stdout). */
  logDestination?: NodeJS.WritableStream;
  /** Install SIGTERM/SIGINT handlers for graceful shutdown (default true). */
  handleSignals?: boolean;
};

export async function startHamlet(config: Config, options: StartOptions = {}): Promise<Hamlet> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const { store, db, dialect } = await openDatabase(config.databaseUrl);
  if (options.demo) {
    const { ensureDemoCommunity } = await import('./domain/demo.ts');
    const demo = await ensureDemoCommunity(store, config);
    logger.info({ demo }, demo.created ? 'demo communities created' : 'demo community already there');
  }

  const events = new ContentEvents((err, event) => logger.error({ err, event: event.type }, 'content event listener failed'));
  const content = new ContentService(store, config, events);
  const identity = createIdentityServices({ store, config, content, logger });
  const search = new SearchService(store, createSearchIndex(db, dialect), config);
  const mcpConfig = new CommunityMcpService(store);
  const deps = surfaceDeps({ store, config, content, identity, search, mcpConfig, logger });

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
    maxBodyBytes: config.mcp.maxBodyBytes,
    maxBatch: config.mcp.maxBatch,
    trustProxy: config.trustProxy,
    resolve: endpoints.resolve,
    admit: admitByIp(identity),
  });
  const stopWatching = watchMcpConfig({ store, mcp, forget: endpoints.forget, logger });
  // A subscribed topic resource hears about its new posts, edits and solutions.
  events.subscribe((event) => {
    void notifyTopicChanged(store, mcp, event).catch((err: unknown) => logger.warn({ err }, 'resource update notification failed'));
  });

  const docs = llmsSections({
    networkOrigin: communityOrigin(config, null),
    communityOriginPattern: communityOrigin(config, '<slug>'),
    communityTools: communityTools(deps, DOC_COMMUNITY),
    networkTools: networkTools(deps),
  });
  // The host a web request addressed: X-Forwarded-Host only behind a trusted proxy.
  const webHost = (host: string | undefined, forwarded: string | undefined) =>
    resolveCommunityHost(store, requestHost({ host, 'x-forwarded-host': forwarded }, config.trustProxy), config.baseDomain);
  const app = createApp({
    logger,
    ready: () => store.ping().then(() => true),
    hostKind: async (host, forwarded) => (await webHost(host, forwarded)).kind,
    mount: (app) =>
      mountWeb(app, {
        content,
        communityOf: async (host, forwarded) => {
          const r = await webHost(host, forwarded);
          return r.kind === 'community' ? r.community : undefined;
        },
      }),
    llms: (section) => renderLlms(docs, section),
  });
  const server = createHttpServer(app, mcp.transport, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${config.publicScheme}://${config.baseDomain}:${port}`;
  logger.info({ url, database: config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres' }, 'Hamlet is listening');

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
      await store.close();
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
  return { server, store, mcp, logger, url, services: { content, identity, search, mcpConfig }, close };
}
