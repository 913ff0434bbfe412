// The HTTP server: node:http in front, /api/mcp to the MCP transport, the OAuth connector URL /mcp
// to its guard in front of the same transport, everything else to Hono.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import type { McpHttpTransport } from '../mcp/http-transport.ts';
import type { Logger } from '../log.ts';

export const MCP_PATH = '/api/mcp';
/** A community's MCP server for OAuth clients (MCP hosts acting for a person). */
export const CONNECTOR_PATH = '/mcp';

/** The OAuth-protected connector URL's listener (src/http/oauth-connector.ts). */
export type ConnectorListener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function createHttpServer(app: Hono, mcp: McpHttpTransport, logger: Logger, connector?: ConnectorListener): Server {
  const honoListener = getRequestListener(app.fetch);
  const server = createServer((req, res) => {
    const path = pathOf(req);
    if (path === MCP_PATH) {
      mcp.handle(req, res).catch((err) => logger.error({ err }, 'MCP transport failed'));
      return;
    }
    if (connector && path === CONNECTOR_PATH) {
      connector(req, res).catch((err) => logger.error({ err }, 'MCP connector failed'));
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
