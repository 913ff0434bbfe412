// Serves the conformance fixture surface on the real MCP stack, at http://localhost:<port>/mcp.
// Only loopback host names resolve (anything else is a DNS-rebinding attempt: 404).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { InMemorySessionStore } from '../../src/mcp/memory-sessions.ts';
import type { EngineLogger } from '../../src/mcp/context.ts';
import type { SessionCaps, SessionStore } from '../../src/mcp/session-store.ts';
import { createMcpStack, type McpStack } from '../../src/mcp/stack.ts';
import type { StreamCaps } from '../../src/mcp/stream-limits.ts';
import { fixtureSurface } from './fixture-surface.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export type FixtureServer = {
  url: string;
  port: number;
  stack: McpStack;
  server: Server;
  close(): Promise<void>;
};

export async function startFixtureServer(
  port = 0,
  options: {
    sessionIdleMs?: number;
    sessions?: SessionStore;
    sessionCaps?: SessionCaps;
    streamCaps?: StreamCaps;
    logger?: EngineLogger;
    sessionOwner?: (credential: string | undefined) => string | undefined;
  } = {},
): Promise<FixtureServer> {
  // The list-changing fixture tools announce through the stack built just below.
  const surface = fixtureSurface({
    listChanged: (list) => void stack.engine.notifyListChanged('fixture', list),
  });
  const quiet = {
    warn() {},
    error(obj: object, msg?: string) {
      if (process.env.FIXTURE_DEBUG) console.error(msg, obj);
    },
  };
  const stack = createMcpStack({
    sessions: options.sessions ?? new InMemorySessionStore(),
    sessionCaps: options.sessionCaps,
    streamCaps: options.streamCaps,
    sessionOwner: options.sessionOwner,
    logger: options.logger ?? quiet,
    sessionIdleMs: options.sessionIdleMs ?? 600_000,
    maxBodyBytes: 1_000_000,
    maxBatch: 100,
    resolve(req) {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      return LOOPBACK.has(host) ? { scope: 'fixture', surface } : undefined;
    },
  });
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/mcp') {
      stack.transport.handle(req, res).catch(() => {});
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${actual}/mcp`,
    port: actual,
    stack,
    server,
    close: () =>
      new Promise((resolve) => {
        stack.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const s = await startFixtureServer(Number(process.argv[2] ?? 0));
  console.log(s.url);
}
