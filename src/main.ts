// Wiring: config → store → services → HTTP. The only place that creates adapters.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config/config.ts';
import { createLogger, type Logger } from './log.ts';
import { openStore } from './store/open.ts';
import type { Store } from './store/repositories.ts';
import { resolveCommunityHost } from './domain/tenancy.ts';
import { createApp } from './http/app.ts';
import { createHttpServer, requestHost } from './http/server.ts';
import { createMcpStack, type McpStack } from './mcp/stack.ts';
import type { Surface } from './mcp/surface.ts';
import { communityInstructions, networkInstructions } from './mcp/surfaces/instructions.ts';

export const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

export type Hamlet = { server: Server; store: Store; mcp: McpStack; logger: Logger; url: string; close(): Promise<void> };

export type StartOptions = {
  demo?: boolean;
  /** Where logs go (default stdout). */
  logDestination?: NodeJS.WritableStream;
  /** Install SIGTERM/SIGINT handlers for graceful shutdown (default true). */
  handleSignals?: boolean;
};

export async function startHamlet(config: Config, options: StartOptions = {}): Promise<Hamlet> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const store = await openStore(config.databaseUrl);
  if (options.demo) {
    const { ensureDemoCommunity } = await import('./domain/demo.ts');
    const demo = await ensureDemoCommunity(store, config);
    logger.info({ demo }, demo.created ? 'demo communities created' : 'demo community already there');
  }

  const networkSurface: Surface = {
    serverInfo: { name: 'hamlet', title: 'Hamlet network', version: VERSION },
    instructions: networkInstructions(),
    tools: [],
    prompts: [],
    resources: [],
    templates: [],
  };

  const mcp = createMcpStack({
    // In the database: a session survives a restart and any instance over the same database serves it.
    sessions: store.mcpSessions,
    logger,
    sessionIdleMs: config.mcp.sessionIdleSeconds * 1000,
    maxBodyBytes: config.mcp.maxBodyBytes,
    maxBatch: config.mcp.maxBatch,
    trustProxy: config.trustProxy,
    async resolve(req) {
      const resolved = await resolveCommunityHost(store, requestHost(req.headers, config.trustProxy), config.baseDomain);
      if (resolved.kind === 'network') return { scope: 'network', surface: networkSurface };
      if (resolved.kind === 'unknown') return undefined;
      const c = resolved.community;
      const surface: Surface = {
        serverInfo: { name: 'hamlet', title: `Hamlet: ${c.slug}`, version: VERSION },
        instructions: communityInstructions(c.slug, c.name),
        tools: [],
        prompts: [],
        resources: [],
        templates: [],
      };
      return { scope: `community:${c.id}`, surface };
    },
  });

  const app = createApp({
    logger,
    ready: () => store.ping().then(() => true),
    hostKind: async (host) => (await resolveCommunityHost(store, host, config.baseDomain)).kind,
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
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Open SSE streams would hold the server forever: end them after a grace period.
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
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
  return { server, store, mcp, logger, url, close };
}
