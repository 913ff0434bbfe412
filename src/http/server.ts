// The HTTP server: node:http in front, /api/mcp to the MCP transport, the OAuth connector URL /mcp
// to its guard in front of the same transport, everything else to Hono.
// The path form `/c/<slug>/…` is resolved here, before either sees the request: the request is
// rewritten to what the community's own host would have received (`/…` on `<slug>.<base>`), so MCP,
// REST and the web serve it unchanged, and URLs built while serving it keep the path form.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import type { McpHttpTransport } from '../mcp/http-transport.ts';
import type { Logger } from '../log.ts';
import type { AccessLog } from './access-log.ts';
import { COMMUNITY_SLUG, RESERVED_COMMUNITY_SLUGS } from '../domain/slug.ts';
import { PATH_FORM_HOST_HEADER, PATH_FORM_PREFIX } from '../domain/urls.ts';

export const MCP_PATH = '/api/mcp';
/** A community's MCP server for OAuth clients (MCP hosts acting for a person). */
export const CONNECTOR_PATH = '/mcp';

/** The OAuth-protected connector URL's listener (src/http/oauth-connector.ts). */
export type ConnectorListener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export type HttpOptions = {
  baseDomain: string;
  connector?: ConnectorListener;
  /** Where the MCP requests' access-log lines and metrics go (Hono's requests log themselves). */
  access?: AccessLog;
  /** The client's address, for the MCP requests' lines. */
  addressOf?: (req: IncomingMessage) => string;
};

export function createHttpServer(
  app: Hono,
  mcp: McpHttpTransport,
  logger: Logger,
  options: HttpOptions,
): Server {
  const honoListener = getRequestListener(app.fetch);
  const server = createServer((req, res) => {
    // The path form is told by the header the rewrite sets, so no client may send it itself.
    if (
      !rewritePathForm(req, options.baseDomain) &&
      req.headers[PATH_FORM_HOST_HEADER] !== undefined
    )
      dropHeader(req, PATH_FORM_HOST_HEADER);
    const path = pathOf(req);
    // A trailing slash is the same endpoint: MCP clients given ".../api/mcp/" must not get HTML.
    if (path === MCP_PATH || path === `${MCP_PATH}/`) {
      void serveMcp(mcp.handle, req, res, logger, options, 'MCP transport failed');
      return;
    }
    if (options.connector && (path === CONNECTOR_PATH || path === `${CONNECTOR_PATH}/`)) {
      void serveMcp(options.connector, req, res, logger, options, 'MCP connector failed');
      return;
    }
    // Only Hono's adapter reads rawHeaders: MCP requests skip their rewrite.
    if (req.headers[PATH_FORM_HOST_HEADER] !== undefined) rewriteRawHeaders(req);
    void honoListener(req, res);
  });
  // Slow-loris and idle keep-alive bounds; SSE streams send keep-alive comments within these.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  return server;
}

/** An MCP request, between its access record's start (the request id echoed) and its line. */
async function serveMcp(
  listener: ConnectorListener,
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger,
  o: HttpOptions,
  failure: string,
): Promise<void> {
  o.access?.mcpBegin(req, res);
  try {
    await listener(req, res);
  } catch (err) {
    logger.error({ err }, failure);
  }
  o.access?.mcpEnd(req, res, o.addressOf?.(req) ?? '');
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

const PATH_FORM = new RegExp(`^${PATH_FORM_PREFIX}([^/?#]*)(/[^?#]*)?([?].*)?$`);

/** A host under the reserved `.invalid` top-level domain: it never resolves to a community. */
const NO_HOST = 'no-community.invalid';

/**
 * `/c/<slug>/rest?query` on any host becomes `/rest?query` on host `<slug>.<base>` (X-Forwarded-Host
 * dropped: the path names the community). A segment that cannot be a community's slug gets a host
 * that resolves to nothing, answered as an unknown host is. Returns whether the request was in the
 * path form.
 */
export function rewritePathForm(req: IncomingMessage, baseDomain: string): boolean {
  const m = PATH_FORM.exec(req.url ?? '/');
  if (!m) return false;
  const slug = m[1]!.toLowerCase();
  req.url = `${m[2] ?? '/'}${m[3] ?? ''}`;
  const host =
    COMMUNITY_SLUG.test(slug) && !RESERVED_COMMUNITY_SLUGS.has(slug)
      ? `${slug}.${baseDomain}`
      : NO_HOST;
  // The host the browser addressed stays known (same-origin checks of forms compare with it).
  const addressed = req.headers.host ?? '';
  req.headers.host = host;
  req.headers[PATH_FORM_HOST_HEADER] = addressed;
  delete req.headers['x-forwarded-host'];
  return true;
}

/**
 * Hono's adapter reads rawHeaders (name, value, name, value, …): a path-form request's are made to
 * say what its parsed headers say (Host and the path-form header rewritten, X-Forwarded-Host gone).
 */
function rewriteRawHeaders(req: IncomingMessage): void {
  const rawHeaders: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (name === 'x-forwarded-host' || name === 'host' || name === PATH_FORM_HOST_HEADER) continue;
    rawHeaders.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  rawHeaders.push(
    'Host',
    req.headers.host!,
    PATH_FORM_HOST_HEADER,
    String(req.headers[PATH_FORM_HOST_HEADER]),
  );
  req.rawHeaders = rawHeaders;
}

/** Removes header `name` (lower case) from the request, from its parsed and its raw headers alike. */
function dropHeader(req: IncomingMessage, name: string): void {
  delete req.headers[name];
  const rawHeaders: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i]!.toLowerCase() !== name)
      rawHeaders.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  req.rawHeaders = rawHeaders;
}

/** The host a request addressed: X-Forwarded-Host only when a trusted proxy sets it. */
export function requestHost(
  headers: IncomingMessage['headers'],
  trustProxy: boolean,
): string | undefined {
  const forwarded = trustProxy ? headers['x-forwarded-host'] : undefined;
  const value =
    (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || headers.host;
  return value;
}
