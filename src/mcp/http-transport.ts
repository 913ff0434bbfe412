// MCP Streamable HTTP on node:http, both protocol eras on one endpoint, chosen per request. A POST
// whose `_meta` (or MCP-Protocol-Version header) names 2026-07-28 goes to modern-http.ts. Everything
// else is the legacy era, stateless first: one POST carries one message (or a batch) and gets one
// JSON response. When the client echoes the Mcp-Session-Id that `initialize` returned, the same
// endpoint adds the session features: a GET stream, DELETE, and POST responses that upgrade to SSE
// as soon as the request has something to say before its result (progress, logs, questions).
//
// This is plain node:http rather than Hono on purpose: on the same machine a Hono route that reads a
// JSON body served ~5.6k req/s against ~38k for node:http (bench/mcp-throughput measures it), and
// this endpoint is the hot path for agents.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ownerOf, type Exchange, type McpEngine } from './engine.ts';
export { CORS_HEADERS } from './cors.ts';
import { classify, ErrorCode, ErrorText, failure, type JsonRpcResponse } from './jsonrpc.ts';
import type { SessionRecord } from './session-store.ts';
import { SseSink } from './sse.ts';
import { CORS_HEADERS, CORS_RESPONSE_HEADERS } from './cors.ts';
import {
  credentialOf,
  drain,
  header,
  readBody,
  rpcError,
  send,
  tooMany,
  type Reply,
} from './http-reply.ts';
import { isModernPost, ModernHttp } from './modern-http.ts';
import { PostChannel } from './post-channel.ts';
import type { StreamHub } from './stream-hub.ts';
import { StreamLimits } from './stream-limits.ts';
import type { Surface } from './surface.ts';
import {
  ALL_PROTOCOL_VERSIONS,
  isModernVersion,
  isSupportedVersion,
  PREFERRED_PROTOCOL_VERSION,
  sendsPrimingEvents,
} from './versions.ts';
import { MAX_JSON_DEPTH, parseBody } from './wire.ts';

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
  /**
   * Who owns the session a request opens or uses; default: a hash of its credential. An
   * application whose credentials rotate (short-lived OAuth access tokens) names what stays the
   * same instead (the grant), so a refresh does not end the client's session.
   */
  sessionOwner?: (credential: string | undefined) => string | undefined;
  /** Long-lived event streams per client address and per session. */
  streamLimits?: StreamLimits;
};

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number; message: string };

export class McpHttpTransport {
  private readonly retryMs: number;
  private readonly streams: StreamLimits;
  readonly modern: ModernHttp;

  constructor(private readonly o: TransportOptions) {
    this.retryMs = o.retryMs ?? 1000;
    this.streams = o.streamLimits ?? new StreamLimits();
    this.modern = new ModernHttp(o.engine, this.streams);
  }

  /** The node:http request listener for the MCP path. */
  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await this.route(req, res);
    } catch (err) {
      if (!res.headersSent) {
        send(res, {
          status: 500,
          body: failure(null, { code: ErrorCode.InternalError, message: 'Internal error.' }),
        });
      } else res.end();
      throw err;
    }
  };

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return send(res, { status: 204, headers: CORS_HEADERS });
    const ip = clientIp(req, this.o.trustProxy ?? false);
    const admitted = await this.o.admit?.(ip, 1);
    if (admitted && !admitted.ok) {
      drain(req);
      return send(res, tooMany(admitted.message, admitted.retryAfterSeconds));
    }
    const endpoint = await this.o.resolve(req);
    if (!endpoint) {
      drain(req);
      return send(
        res,
        rpcError(404, {
          code: ErrorCode.InvalidRequest,
          message: this.o.unresolvedMessage ?? ErrorText.unresolved,
        }),
      );
    }
    const versionHeader = header(req, 'mcp-protocol-version');
    if (
      versionHeader !== undefined &&
      !isSupportedVersion(versionHeader) &&
      !isModernVersion(versionHeader)
    ) {
      drain(req);
      return send(
        res,
        rpcError(400, {
          code: ErrorCode.UnsupportedProtocolVersion,
          message: `Unsupported MCP-Protocol-Version: ${versionHeader}. Supported: ${ALL_PROTOCOL_VERSIONS.join(', ')}.`,
          data: { supported: ALL_PROTOCOL_VERSIONS, requested: versionHeader },
        }),
      );
    }
    if (method === 'POST') return this.post(req, res, endpoint, versionHeader, ip);
    const sessionId = header(req, 'mcp-session-id');
    if (!sessionId || (method !== 'GET' && method !== 'DELETE')) {
      drain(req);
      return send(res, {
        status: 405,
        headers: { allow: 'POST, OPTIONS' },
        body: failure(null, {
          code: ErrorCode.InvalidRequest,
          message: `Method ${method} needs an Mcp-Session-Id; without a session use POST.`,
        }),
      });
    }
    const session = await this.session(sessionId, endpoint, req);
    if (!session) return send(res, sessionNotFound());
    if (method === 'DELETE') {
      this.o.hub.closeSession(session.id);
      await this.o.engine.sessions.delete(session.id);
      return send(res, { status: 204 });
    }
    return this.openStream(req, res, session, ip);
  }

  // ---- GET: the standalone stream, or the resumption of any stream ------------------------------

  private async openStream(
    req: IncomingMessage,
    res: ServerResponse,
    session: SessionRecord,
    ip: string,
  ): Promise<void> {
    const accept = header(req, 'accept') ?? '';
    if (!/text\/event-stream|\*\/\*/.test(accept)) {
      return send(
        res,
        rpcError(406, {
          code: ErrorCode.InvalidRequest,
          message: 'GET opens an event stream: send Accept: text/event-stream.',
        }),
      );
    }
    const release = this.streams.acquire(ip, session.id);
    if (!release) {
      const caps = this.streams.caps;
      return send(
        res,
        tooMany(
          `Too many open event streams (at most ${caps.perClientIp} per address and ${caps.perSession} per session): close one first.`,
          5,
        ),
      );
    }
    const sink = new SseSink(res, {
      ...CORS_RESPONSE_HEADERS,
      'mcp-protocol-version': session.protocolVersion,
      'mcp-session-id': session.id,
    });
    res.on('close', release);
    const lastEventId = header(req, 'last-event-id');
    if (lastEventId && (await this.o.hub.resume(session.id, lastEventId, sink))) return;
    await this.o.hub.openStandalone(
      session.id,
      sink,
      sendsPrimingEvents(session.protocolVersion) ? { retryMs: this.retryMs } : undefined,
    );
  }

  // ---- POST: one message or a batch -------------------------------------------------------------

  private async post(
    req: IncomingMessage,
    res: ServerResponse,
    endpoint: Endpoint,
    versionHeader: string | undefined,
    ip: string,
  ): Promise<void> {
    const contentType = header(req, 'content-type');
    if (contentType && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
      drain(req);
      return send(
        res,
        rpcError(415, {
          code: ErrorCode.InvalidRequest,
          message: 'Send the JSON-RPC message with Content-Type: application/json.',
        }),
      );
    }
    const accept = header(req, 'accept');
    if (accept && !/application\/json|text\/event-stream|application\/\*|\*\/\*/i.test(accept)) {
      drain(req);
      return send(
        res,
        rpcError(406, {
          code: ErrorCode.InvalidRequest,
          message: 'Accept application/json (and optionally text/event-stream).',
        }),
      );
    }
    const raw = await readBody(req, this.o.maxBodyBytes);
    if (raw === 'too-large') {
      return send(
        res,
        rpcError(413, {
          code: ErrorCode.InvalidRequest,
          message: `Request body exceeds ${this.o.maxBodyBytes} bytes.`,
        }),
      );
    }
    const parsed = parseBody(raw.toString('utf8'));
    if (!parsed.ok) {
      return send(
        res,
        parsed.problem === 'too-deep'
          ? rpcError(400, {
              code: ErrorCode.InvalidRequest,
              message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels: no MCP message needs that.`,
            })
          : rpcError(400, { code: ErrorCode.ParseError, message: ErrorText.invalidJson }),
      );
    }
    if (isModernPost(parsed.value, versionHeader)) {
      return this.modern.serve({
        req,
        res,
        surface: endpoint.surface,
        scope: endpoint.scope,
        body: parsed.value,
        clientIp: ip,
      });
    }
    const isBatch = Array.isArray(parsed.value);
    const items: unknown[] = isBatch ? (parsed.value as unknown[]) : [parsed.value];
    if (isBatch && items.length === 0)
      return send(
        res,
        rpcError(400, { code: ErrorCode.InvalidRequest, message: ErrorText.emptyBatch }),
      );
    if (items.length > this.o.maxBatch) {
      return send(
        res,
        rpcError(400, {
          code: ErrorCode.InvalidRequest,
          message: `Batch too large: at most ${this.o.maxBatch} messages per POST.`,
        }),
      );
    }
    if (items.length > 1) {
      const more = await this.o.admit?.(ip, items.length - 1);
      if (more && !more.ok) return send(res, tooMany(more.message, more.retryAfterSeconds));
    }
    const classified = items.map(classify);
    if (!isBatch && classified[0]!.kind === 'invalid') {
      const bad = classified[0] as Extract<ReturnType<typeof classify>, { kind: 'invalid' }>;
      return send(res, {
        status: 400,
        headers: this.baseHeaders(versionHeader),
        body: failure(bad.id, bad.error),
      });
    }
    // One session per POST: the second and later initialize of a batch are refused.
    let initializes = 0;
    for (let i = 0; i < classified.length; i++) {
      const c = classified[i]!;
      if (c.kind === 'request' && c.message.method === 'initialize' && ++initializes > 1) {
        classified[i] = {
          kind: 'invalid',
          id: c.message.id,
          error: { code: ErrorCode.InvalidRequest, message: 'At most one initialize per POST.' },
        };
      }
    }

    // Session: an unknown id is refused (the client must start over), except for a fresh initialize.
    const sessionId = header(req, 'mcp-session-id');
    let session: SessionRecord | undefined;
    if (sessionId) {
      session = await this.session(sessionId, endpoint, req);
      const onlyInitialize = classified.every(
        (c) => c.kind === 'request' && c.message.method === 'initialize',
      );
      if (!session && !onlyInitialize) return send(res, sessionNotFound());
    }

    const exchange: Exchange = {
      surface: endpoint.surface,
      scope: endpoint.scope,
      credential: credentialOf(req),
      owner: this.ownerOf(req),
      clientIp: ip,
      protocolVersion: versionHeader ?? session?.protocolVersion,
      session,
    };
    const canStream = Boolean(session) && /text\/event-stream/i.test(accept ?? '');
    const channel = session
      ? new PostChannel(res, this.o.hub, session, canStream, this.retryMs)
      : undefined;
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

    const headers = this.baseHeaders(
      negotiatedVersion(classified, responses) ?? exchange.protocolVersion,
    );
    if (exchange.createdSessionId) headers['mcp-session-id'] = exchange.createdSessionId;
    else if (session) headers['mcp-session-id'] = session.id;

    if (channel?.streaming) return channel.finish(responses);
    const requestCount = classified.filter(
      (c) => c.kind === 'request' || c.kind === 'invalid',
    ).length;
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

  private ownerOf(req: IncomingMessage): string | undefined {
    return (this.o.sessionOwner ?? ownerOf)(credentialOf(req));
  }

  /**
   * The session a request names, if it lives on this endpoint and belongs to the request's
   * credential (an anonymous session to requests without one); anything else is "not found".
   */
  private async session(
    id: string,
    endpoint: Endpoint,
    req: IncomingMessage,
  ): Promise<SessionRecord | undefined> {
    const session = await this.o.engine.sessions.get(id);
    if (!session || session.scope !== endpoint.scope || session.owner !== this.ownerOf(req))
      return undefined;
    const now = Date.now();
    if (now - session.lastSeenAt > 5_000) await this.o.engine.sessions.touch(id, now);
    return session;
  }
}

/** The protocol version an initialize in this POST settled on, if there was one. */
function negotiatedVersion(
  classified: ReturnType<typeof classify>[],
  responses: JsonRpcResponse[],
): string | undefined {
  for (const c of classified) {
    if (c.kind !== 'request' || c.message.method !== 'initialize') continue;
    const id = c.message.id;
    const r = responses.find((x) => x.id === id && 'result' in x) as
      { result: { protocolVersion?: string } } | undefined;
    if (r?.result.protocolVersion) return r.result.protocolVersion;
  }
  return undefined;
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
  const listed = (Array.isArray(raw) ? raw.join(',') : (raw ?? ''))
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const chain = [...listed, peer];
  return chain[Math.max(0, chain.length - 1 - hops)]!;
}

function sessionNotFound(): Reply {
  return rpcError(404, {
    code: ErrorCode.SessionNotFound,
    message:
      'Session not found: it expired or was deleted. Send initialize again, or drop the Mcp-Session-Id header to work statelessly.',
  });
}
