// The HTTP server: node:http in front, /api/mcp to the MCP transport, everything else to Hono.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import type { McpHttpTransport } from '../mcp/http-transport.ts';
import type { Logger } from '../log.ts';

export const MCP_PATH = '/api/mcp';

export function createHttpServer(app: Hono, mcp: McpHttpTransport, logger: Logger): Server {
  const honoListener = getRequestListener(app.fetch);
  const server = createServer((req, res) => {
    // `/api/mcp/` is the same endpoint: clients that add the slash must not get an HTML 404.
    const path = pathOf(req);
    if (path === MCP_PATH || path === `${MCP_PATH}/`) {
      mcp.handle(req, res).catch((err) => logger.error({ err }, 'MCP transport failed'));
      return;
    }
    void honoListener(req, res);
  });
  // Slow-loris and idle keep-alive bounds; SSE streams send keep-alive comments within these.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  return server;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The host a request addressed: X-Forwarded-Host only when a trusted proxy sets it. */
export function requestHost(headers: IncomingMessage['headers'], trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? headers['x-forwarded-host'] : undefined;
  const value = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || headers.host;
  return value;
}
