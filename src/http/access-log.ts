// One access-log line (level info, message "request") per HTTP request on every face, and the
// request metrics beside it. A line says: face (mcp, rest, web, oauth, health, metrics), the HTTP
// method and path (never the query), the operation (the route; on MCP the JSON-RPC method, the tool
// of a tools/call, and for a batch the first of them with `messages`), the community's slug, who
// the caller was once authenticated (`actor`: agent:<id> or person:<id>, and `key`: the
// credential's display prefix, never the key), the HTTP status and on MCP `code` (a tool error's
// code or the JSON-RPC error code), the duration in ms, the client address, and the request id: the
// incoming `x-request-id` when the peer that sent it is a trusted proxy (HAMLET_TRUSTED_PROXIES,
// loopback by default: ../config/trusted-proxies.ts) and it is sane (at most 100 of
// [A-Za-z0-9._:@+=/-]), else a new one, echoed as `x-request-id` on every face. Headers, cookies, bodies and query strings never reach
// the line. Reads are recorded here only (the audit log keeps writes): the line is their record.
import type { Context, MiddlewareHandler } from 'hono';
import type { Actor } from '../domain/actor.ts';
import { notedActor } from '../web/actor-note.ts';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { infoLines, type Logger } from '../log.ts';
import { withResponseHeaders } from '../web/response-headers.ts';
import type { JsonRpcRequest, JsonRpcResponse } from '../mcp/jsonrpc.ts';
import type { Face, Metrics } from './metrics.ts';
import { METRICS_PATH } from './metrics-endpoint.ts';
import { isRestPath } from './rest/unknown.ts';
import { DEFAULT_TRUSTED_PROXIES, trustedPeer } from '../config/trusted-proxies.ts';

const SANE_REQUEST_ID = /^[\w.:@+=/-]{1,100}$/;
const q = JSON.stringify;

/** The line's `actor` and `key` fields (nothing for an anonymous caller). */
function whoOf(actor: Actor | undefined): string {
  const id =
    actor?.kind === 'agent' ? actor.agentId : actor?.kind === 'person' ? actor.personId : undefined;
  if (!actor || !id) return '';
  const key = 'keyPrefix' in actor && actor.keyPrefix ? `,"key":${q(actor.keyPrefix)}` : '';
  return `,"actor":${q(`${actor.kind}:${id}`)}${key}`;
}

/** The incoming request id when a trusted peer sent it and it is sane, else a new one. */
export function requestIdOf(incoming: string | string[] | undefined, trusted: boolean): string {
  return trusted && typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming)
    ? incoming
    : randomUUID();
}

/** What one MCP request came to, filled in as it is served. */
class McpAccess {
  method: string | undefined = undefined;
  /** The method as a metric label: unknown methods are one value, whatever clients send. */
  operation: string | undefined = undefined;
  tool: string | undefined = undefined;
  code: string | undefined = undefined;
  community: string | undefined = undefined;
  actor: Actor | undefined = undefined;
  messages = 0;
  /** The batch position of the message the line names (the first of the batch answered so far). */
  position = Infinity;
  constructor(
    readonly requestId: string,
    readonly started: number,
  ) {}
}

/** A JSON-RPC answer as a status: ok, the tool error's code, the JSON-RPC error code, or cancelled. */
function outcomeOf(request: JsonRpcRequest, response: JsonRpcResponse | undefined): string {
  if (!response) return request.method === 'subscriptions/listen' ? 'ok' : 'cancelled';
  if ('error' in response) return String(response.error.code);
  const result = response.result as
    { isError?: boolean; structuredContent?: { code?: unknown } } | undefined;
  if (!result?.isError) return 'ok';
  const code = result.structuredContent?.code;
  return typeof code === 'string' && code.length <= 64 ? code : 'error';
}

const RATE_LIMITED = new Set(['rate_limited', '-32005']);
/** "Method not found" and "invalid params": what an unknown method or tool gets (by era). */
const UNKNOWN_METHOD = '-32601';
const UNKNOWN_TOOL = '-32602';

/** The path an MCP request addressed (never its query): the path form's prefix is kept. */
function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return (q === -1 ? url : url.slice(0, q)).slice(0, 200);
}

/** The face a non-MCP path belongs to. */
function faceOf(path: string): Face {
  if (path === '/heartbeat' || path === '/readyz') return 'health';
  if (path === METRICS_PATH) return 'metrics';
  if (isRestPath(path)) return 'rest';
  if (path.startsWith('/.well-known/oauth') || path.startsWith('/oauth/')) return 'oauth';
  return 'web';
}

export type AccessLog = ReturnType<typeof createAccessLog>;

export function createAccessLog(
  logger: Logger,
  metrics: Metrics,
  trustedProxies: readonly string[] = DEFAULT_TRUSTED_PROXIES.split(','),
) {
  const trusted = trustedPeer(trustedProxies);
  const idOf = (req: IncomingMessage | undefined, header: string | string[] | undefined) =>
    requestIdOf(header, trusted(req?.socket.remoteAddress));
  const mcp = new WeakMap<IncomingMessage, McpAccess>();
  // Every field below is chosen here, none a secret: written without the redaction pass.
  const write = infoLines(logger);
  const toolName = (request: JsonRpcRequest) => {
    const name = request.params?.name;
    return typeof name === 'string' ? name.slice(0, 64) : '';
  };
  return {
    /** An MCP request arrives: its request id is echoed at once (every answer carries it). */
    mcpBegin(req: IncomingMessage, res: ServerResponse): void {
      const access = new McpAccess(idOf(req, req.headers['x-request-id']), performance.now());
      res.setHeader('x-request-id', access.requestId);
      mcp.set(req, access);
    },
    /** The community an MCP request addressed. */
    mcpCommunity(req: IncomingMessage, slug: string): void {
      const access = mcp.get(req);
      if (access) access.community = slug;
    },
    /** Who an MCP request's caller is, once authenticated (the first of a batch). */
    mcpActor(req: IncomingMessage, actor: Actor): void {
      const access = mcp.get(req);
      if (access) access.actor ??= actor;
    },
    /** One JSON-RPC request of an MCP POST was answered (undefined: cancelled). */
    mcpAnswered(
      req: IncomingMessage,
      request: JsonRpcRequest,
      response: JsonRpcResponse | undefined,
      position = 0,
    ): void {
      const access = mcp.get(req);
      if (!access) return;
      const tool = request.method === 'tools/call' ? toolName(request) : '';
      const outcome = outcomeOf(request, response);
      // Labels stay bounded whatever clients send: an unknown method or tool is "unknown".
      const unknown = outcome === UNKNOWN_METHOD || outcome === UNKNOWN_TOOL;
      const method = outcome === UNKNOWN_METHOD && !tool ? 'unknown' : request.method;
      access.messages++;
      // The line names the batch's first message, whichever was answered first.
      if (position < access.position) {
        access.position = position;
        access.method = request.method;
        access.operation = method;
        access.tool = tool || undefined;
      }
      if (outcome !== 'ok') access.code ??= outcome;
      if (RATE_LIMITED.has(outcome)) metrics.rateLimited('mcp');
      const seconds = (performance.now() - access.started) / 1e3;
      metrics.mcpRequest(method, unknown && tool ? 'unknown' : tool, outcome, seconds);
    },
    /** The MCP request was answered (an event stream: opened): its line. */
    mcpEnd(req: IncomingMessage, res: ServerResponse, address: string): void {
      const access = mcp.get(req);
      if (!access) return;
      const ms = performance.now() - access.started;
      const status = res.statusCode;
      // A request answered before any message was (refused, unreadable, or failed): "unanswered".
      const operation = access.messages > 1 ? 'batch' : (access.operation ?? 'unanswered');
      if (write) {
        let m = `"face":"mcp","requestId":${q(access.requestId)},"http":${q(req.method ?? '')}`;
        m += `,"path":${q(pathOf(req))},"operation":${q(operation)}`;
        if (access.method !== undefined) m += `,"method":${q(access.method)}`;
        if (access.tool !== undefined) m += `,"tool":${q(access.tool)}`;
        if (access.messages > 1) m += `,"messages":${access.messages}`;
        if (access.community !== undefined) m += `,"community":${q(access.community)}`;
        m += whoOf(access.actor);
        m += `,"status":${status}`;
        if (access.code !== undefined) m += `,"code":${q(access.code)}`;
        write(`${m},"ms":${Math.round(ms)},"ip":${q(address)}`, 'request');
      }
      if (status === 429) metrics.rateLimited('mcp');
      metrics.request('mcp', operation, status, ms / 1e3);
    },
    /** The line of every request Hono serves (REST, web, OAuth, health, metrics). */
    hono(o: {
      clientIp: (c: Context) => string | undefined;
      communityOf: (c: Context) => Promise<string | undefined>;
    }): MiddlewareHandler {
      return async (c, next) => {
        const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
        const requestId = idOf(incoming, c.req.header('x-request-id'));
        const started = performance.now();
        await withResponseHeaders(c, { 'x-request-id': requestId }, next);
        const path = c.req.path;
        const face = faceOf(path);
        const status = c.res.status;
        const route = c.req.routePath;
        const operation = route === '*' || route === '/*' ? 'unmatched' : route;
        const ms = performance.now() - started;
        const community =
          face === 'health' ? undefined : await o.communityOf(c).catch(() => undefined);
        if (write) {
          let m = `"face":"${face}","requestId":${q(requestId)},"http":${q(c.req.method)}`;
          m += `,"path":${q(path)},"operation":${q(operation)}`;
          if (community !== undefined) m += `,"community":${q(community)}`;
          m += whoOf(notedActor(c));
          const ip = o.clientIp(c);
          m += `,"status":${status},"ms":${Math.round(ms)}`;
          write(ip === undefined ? m : `${m},"ip":${q(ip)}`, 'request');
        }
        if (status === 429) metrics.rateLimited(face);
        metrics.request(face, `${c.req.method} ${operation}`, status, ms / 1e3);
      };
    },
  };
}
