// MCP Streamable HTTP on node:http. Stateless first: one POST carries one message (or a batch) and
// gets one JSON response. When the client echoes the Mcp-Session-Id that `initialize` returned, the
// same endpoint adds the session features: a GET stream, DELETE, and POST responses that upgrade to
// SSE as soon as the request has something to say before its result (progress, logs, questions).
//
// This is plain node:http rather than Hono on purpose: on the same machine a Hono route that reads a
// JSON body served ~5.6k req/s against ~38k for node:http (bench/mcp-throughput measures it), and
// this endpoint is the hot path for agents.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Exchange, McpEngine } from './engine.ts';
export { CORS_HEADERS } from './cors.ts';
import {
  classify,
  ErrorCode,
  ErrorText,
  failure,
  type JsonRpcErrorObject,
  type JsonRpcResponse,
} from './jsonrpc.ts';
import type { SessionRecord } from './session-store.ts';
import { SseSink } from './sse.ts';
import { CORS_HEADERS, CORS_RESPONSE_HEADERS } from './cors.ts';
import { PostChannel } from './post-channel.ts';
import type { StreamHub } from './stream-hub.ts';
import type { Surface } from './surface.ts';
import { isSupportedVersion, PREFERRED_PROTOCOL_VERSION, sendsPrimingEvents, SUPPORTED_PROTOCOL_VERSIONS } from './versions.ts';


/** What the request's host resolved to. */
export type Endpoint = { scope: string; surface: Surface };

export type TransportOptions = {
  engine: McpEngine;
  hub: StreamHub;
  /** Maps a request to the MCP endpoint it addresses; undefined → JSON-RPC -32600, HTTP 404. */
  resolve: (req: IncomingMessage) => Promise<Endpoint | undefined> | Endpoint | undefined;
  maxBodyBytes: number;
  maxBatch: number;
  /** Milliseconds a client should wait before reconnecting a closed stream (SSE `retry:`). */
  retryMs?: number;
  /** Proxies in front whose X-Forwarded-For is trusted: false/0 none, true one, or a count (see clientIp). */
  trustProxy?: boolean | number;
  /** Text of the -32600 error for a host that resolves to nothing. */
  unresolvedMessage?: string;
  /**
   * Per-client admission (rate limit by IP), charged once per JSON-RPC message: one unit before the
   * body is read, and one more for each further member of a batch. A refusal is HTTP 429 with
   * Retry-After.
   */
  admit?: (clientIp: string, messages: number) => Admission | Promise<Admission>;
};


type Reply = { status: number; headers?: Record<string, string>; body?: unknown };

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number; message: string };

export class McpHttpTransport {
  private readonly retryMs: number;

  constructor(private readonly o: TransportOptions) {
    this.retryMs = o.retryMs ?? 1000;
  }

  /** The node:http request listener for the MCP path. */
  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await this.route(req, res);
    } catch (err) {
      if (!res.headersSent) {
        send(res, { status: 500, body: failure(null, { code: ErrorCode.InternalError, message: 'Internal error.' }) });
      } else res.end();
      throw err;
    }
  };

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return send(res, { status: 204, headers: CORS_HEADERS });
    const admitted = await this.o.admit?.(clientIp(req, this.o.trustProxy ?? false), 1);
    if (admitted && !admitted.ok) {
      drain(req);
      return send(res, rateLimited(admitted));
    }
    const endpoint = await this.o.resolve(req);
    if (!endpoint) {
      drain(req);
      return send(res, rpcError(404, { code: ErrorCode.InvalidRequest, message: this.o.unresolvedMessage ?? ErrorText.unresolved }));
    }
    const versionHeader = header(req, 'mcp-protocol-version');
    if (versionHeader !== undefined && !isSupportedVersion(versionHeader)) {
      drain(req);
      return send(res, rpcError(400, {
        code: ErrorCode.InvalidRequest,
        message: `Unsupported MCP-Protocol-Version: ${versionHeader}. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
      }));
    }
    if (method === 'POST') return this.post(req, res, endpoint, versionHeader);
    const sessionId = header(req, 'mcp-session-id');
    if (!sessionId || (method !== 'GET' && method !== 'DELETE')) {
      drain(req);
      return send(res, { status: 405, headers: { allow: 'POST, OPTIONS' }, body: failure(null, { code: ErrorCode.InvalidRequest, message: `Method ${method} needs an Mcp-Session-Id; without a session use POST.` }) });
    }
    const session = await this.session(sessionId, endpoint);
    if (!session) return send(res, sessionNotFound());
    if (method === 'DELETE') {
      this.o.hub.closeSession(session.id);
      await this.o.engine.sessions.delete(session.id);
      return send(res, { status: 204 });
    }
    return this.openStream(req, res, session);
  }

  // ---- GET: the standalone stream, or the resumption of any stream ------------------------------

  private async openStream(req: IncomingMessage, res: ServerResponse, session: SessionRecord): Promise<void> {
    const accept = header(req, 'accept') ?? '';
    if (!/text\/event-stream|\*\/\*/.test(accept)) {
      return send(res, rpcError(406, { code: ErrorCode.InvalidRequest, message: 'GET opens an event stream: send Accept: text/event-stream.' }));
    }
    const sink = new SseSink(res, { ...CORS_RESPONSE_HEADERS, 'mcp-protocol-version': session.protocolVersion, 'mcp-session-id': session.id });
    const lastEventId = header(req, 'last-event-id');
    if (lastEventId && (await this.o.hub.resume(session.id, lastEventId, sink))) return;
    await this.o.hub.openStandalone(session.id, sink, sendsPrimingEvents(session.protocolVersion) ? { retryMs: this.retryMs } : undefined);
  }

  // ---- POST: one message or a batch -------------------------------------------------------------

  private async post(req: IncomingMessage, res: ServerResponse, endpoint: Endpoint, versionHeader: string | undefined): Promise<void> {
    const contentType = header(req, 'content-type');
    if (contentType && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
      drain(req);
      return send(res, rpcError(415, { code: ErrorCode.InvalidRequest, message: 'Send the JSON-RPC message with Content-Type: application/json.' }));
    }
    const accept = header(req, 'accept');
    if (accept && !/application\/json|text\/event-stream|application\/\*|\*\/\*/i.test(accept)) {
      drain(req);
      return send(res, rpcError(406, { code: ErrorCode.InvalidRequest, message: 'Accept application/json (and optionally text/event-stream).' }));
    }
    const raw = await readBody(req, this.o.maxBodyBytes);
    if (raw === 'too-large') {
      return send(res, rpcError(413, { code: ErrorCode.InvalidRequest, message: `Request body exceeds ${this.o.maxBodyBytes} bytes.` }));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      return send(res, rpcError(400, { code: ErrorCode.ParseError, message: ErrorText.invalidJson }));
    }
    const isBatch = Array.isArray(parsed);
    const items: unknown[] = isBatch ? (parsed as unknown[]) : [parsed];
    if (isBatch && items.length === 0) return send(res, rpcError(400, { code: ErrorCode.InvalidRequest, message: ErrorText.emptyBatch }));
    if (items.length > this.o.maxBatch) {
      return send(res, rpcError(400, { code: ErrorCode.InvalidRequest, message: `Batch too large: at most ${this.o.maxBatch} messages per POST.` }));
    }
    if (items.length > 1) {
      const more = await this.o.admit?.(clientIp(req, this.o.trustProxy ?? false), items.length - 1);
      if (more && !more.ok) return send(res, rateLimited(more));
    }
    const classified = items.map(classify);
    if (!isBatch && classified[0]!.kind === 'invalid') {
      const bad = classified[0] as Extract<ReturnType<typeof classify>, { kind: 'invalid' }>;
      return send(res, { status: 400, headers: this.baseHeaders(versionHeader), body: failure(bad.id, bad.error) });
    }

    // Session: an unknown id is refused (the client must start over), except for a fresh initialize.
    const sessionId = header(req, 'mcp-session-id');
    let session: SessionRecord | undefined;
    if (sessionId) {
      session = await this.session(sessionId, endpoint);
      const onlyInitialize = classified.every((c) => c.kind === 'request' && c.message.method === 'initialize');
      if (!session && !onlyInitialize) return send(res, sessionNotFound());
    }

    const exchange: Exchange = {
      surface: endpoint.surface,
      scope: endpoint.scope,
      credential: credentialOf(req),
      clientIp: clientIp(req, this.o.trustProxy ?? false),
      protocolVersion: versionHeader ?? session?.protocolVersion,
      session,
    };
    const canStream = Boolean(session) && /text\/event-stream/i.test(accept ?? '');
    const channel = session ? new PostChannel(res, this.o.hub, session, canStream, this.retryMs) : undefined;
    exchange.channel = channel;

    // Batch members run concurrently; answers keep the order of the requests.
    const answers = await Promise.all(
      classified.map(async (c): Promise<JsonRpcResponse | undefined> => {
        if (c.kind === 'invalid') return failure(c.id, c.error);
        if (c.kind === 'notification') await this.o.engine.handleNotification(c.message, exchange);
        else if (c.kind === 'response') this.o.engine.handleClientResponse(c.message, exchange);
        else return this.o.engine.handleRequest(c.message, exchange);
        return undefined;
      }),
    );
    const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined);

    const headers = this.baseHeaders(negotiatedVersion(classified, responses) ?? exchange.protocolVersion);
    if (exchange.createdSessionId) headers['mcp-session-id'] = exchange.createdSessionId;
    else if (session) headers['mcp-session-id'] = session.id;

    if (channel?.streaming) return channel.finish(responses);
    const requestCount = classified.filter((c) => c.kind === 'request' || c.kind === 'invalid').length;
    if (requestCount === 0) return send(res, { status: 202, headers });
    if (responses.length === 0) {
      // Every request was cancelled; nothing is owed, but the HTTP exchange must end.
      return send(res, { status: 202, headers });
    }
    return send(res, { status: 200, headers, body: isBatch ? responses : responses[0] });
  }

  private baseHeaders(version: string | undefined): Record<string, string> {
    const h: Record<string, string> = Object.assign({}, CORS_RESPONSE_HEADERS);
    h['mcp-protocol-version'] = version ?? PREFERRED_PROTOCOL_VERSION;
    return h;
  }

  private async session(id: string, endpoint: Endpoint): Promise<SessionRecord | undefined> {
    const session = await this.o.engine.sessions.get(id);
    if (!session || session.scope !== endpoint.scope) return undefined;
    const now = Date.now();
    if (now - session.lastSeenAt > 5_000) await this.o.engine.sessions.touch(id, now);
    return session;
  }
}

/** The protocol version an initialize in this POST settled on, if there was one. */
function negotiatedVersion(classified: ReturnType<typeof classify>[], responses: JsonRpcResponse[]): string | undefined {
  for (const c of classified) {
    if (c.kind !== 'request' || c.message.method !== 'initialize') continue;
    const id = c.message.id;
    const r = responses.find((x) => x.id === id && 'result' in x) as { result: { protocolVersion?: string } } | undefined;
    if (r?.result.protocolVersion) return r.result.protocolVersion;
  }
  return undefined;
}

// ---- small HTTP helpers ---------------------------------------------------------------------------

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function credentialOf(req: IncomingMessage): string | undefined {
  const auth = header(req, 'authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  return header(req, 'x-api-key')?.trim() || undefined;
}

/**
 * The client's address. Without a proxy in front (`trustProxy` false or 0) it is the socket's peer.
 * Behind `hops` proxies (`true` is one), each appends the address it saw to X-Forwarded-For, so the
 * client is the entry `hops` places from the right of [X-Forwarded-For…, peer]; anything further
 * left was written by the client and may be forged. A shorter list gives its leftmost entry.
 */
export function clientIp(req: IncomingMessage, trustProxy: boolean | number): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : trustProxy;
  if (hops <= 0) return peer;
  const raw = req.headers['x-forwarded-for'];
  const listed = (Array.isArray(raw) ? raw.join(',') : raw ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  const chain = [...listed, peer];
  return chain[Math.max(0, chain.length - 1 - hops)]!;
}

function rpcError(status: number, error: JsonRpcErrorObject): Reply {
  return { status, body: failure(null, error) };
}

function rateLimited(refusal: Extract<Admission, { ok: false }>): Reply {
  return {
    status: 429,
    headers: { 'retry-after': String(refusal.retryAfterSeconds) },
    body: failure(null, { code: ErrorCode.RateLimited, message: refusal.message, data: { retryAfterSeconds: refusal.retryAfterSeconds } }),
  };
}

function sessionNotFound(): Reply {
  return rpcError(404, {
    code: ErrorCode.SessionNotFound,
    message: 'Session not found: it expired or was deleted. Send initialize again, or drop the Mcp-Session-Id header to work statelessly.',
  });
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string | number> = Object.assign({}, CORS_RESPONSE_HEADERS);
  headers['mcp-protocol-version'] = PREFERRED_PROTOCOL_VERSION;
  if (reply.headers) Object.assign(headers, reply.headers);
  if (reply.body === undefined) {
    if (reply.status !== 204) headers['content-length'] = 0;
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const body = JSON.stringify(reply.body);
  headers['content-type'] = 'application/json';
  headers['content-length'] = Buffer.byteLength(body);
  res.writeHead(reply.status, headers);
  res.end(body);
}

/** Reads the body up to `max` bytes; beyond that the rest is discarded and 'too-large' returned. */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    drain(req);
    return Promise.resolve('too-large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function drain(req: IncomingMessage): void {
  req.resume();
}
