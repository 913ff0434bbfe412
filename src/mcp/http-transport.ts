// MCP Streamable HTTP on node:http, both protocol eras on one endpoint, chosen per request: the
// door every request passes (admission per client address, the endpoint, the protocol version), the
// POST body read and parsed once, then handed to its era. A POST whose `_meta` (or
// MCP-Protocol-Version header) names 2026-07-28 goes to modern-http.ts; everything else is the
// legacy era (legacy-post.ts), stateless first: one POST carries one message (or a batch) and gets
// one JSON response. When the client echoes the Mcp-Session-Id that `initialize` returned, the same
// endpoint adds the session features served here: a GET stream and DELETE.
//
// This is plain node:http rather than Hono on purpose: on the same machine a Hono route that reads a
// JSON body served ~5.6k req/s against ~38k for node:http (bench/mcp-throughput measures it), and
// this endpoint is the hot path for agents.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddressOf, type ClientAddress } from './client-address.ts';
import { ownerOf, type McpEngine } from './engine.ts';
import { ErrorCode, ErrorText, failure } from './jsonrpc.ts';
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
  unavailable,
} from './http-reply.ts';
import { serveLegacyPost, sessionNotFound, type LegacyPostDeps } from './legacy-post.ts';
import { isModernPost, ModernHttp } from './modern-http.ts';
import type { StreamHub } from './stream-hub.ts';
import type { Admission, AnsweredHook, Endpoint } from './transport-types.ts';
import { StreamLimits } from './stream-limits.ts';
import {
  ALL_PROTOCOL_VERSIONS,
  isModernVersion,
  isSupportedVersion,
  sendsPrimingEvents,
} from './versions.ts';
import { MAX_JSON_DEPTH, parseBody } from './wire.ts';

export { clientIp, type ClientAddress } from './client-address.ts';
export { CORS_HEADERS } from './cors.ts';
export type { Admission, AnsweredHook, Endpoint } from './transport-types.ts';

export type TransportOptions = {
  engine: McpEngine;
  hub: StreamHub;
  /** Maps a request to the MCP endpoint it addresses; undefined → JSON-RPC -32600, HTTP 404. */
  resolve: (
    req: IncomingMessage,
    context: unknown,
  ) => Promise<Endpoint | undefined> | Endpoint | undefined;
  maxBodyBytes: number;
  maxBatch: number;
  /** Milliseconds a client should wait before reconnecting a closed stream (SSE `retry:`). */
  retryMs?: number;
  /** Proxies in front whose X-Forwarded-For is trusted: false/0 none, true one, or a count (see clientIp). */
  trustProxy?: boolean | number;
  /**
   * How a client's address is written (what handlers see) and grouped (the bucket `admit`, the
   * sessions and the event streams per address count it in); default: as given, one per address.
   */
  clientAddress?: (raw: string) => ClientAddress;
  /** Text of the -32600 error for a host that resolves to nothing. */
  unresolvedMessage?: string;
  /**
   * Per-client admission (rate limit by IP), charged once per JSON-RPC message: one unit before the
   * body is read, and one more for each further member of a batch. A refusal is HTTP 429 with
   * Retry-After. It is given the client's bucket (see clientAddress).
   */
  admit?: (clientKey: string, messages: number) => Admission | Promise<Admission>;
  /**
   * Who owns the session a request opens or uses; default: a hash of its credential. An
   * application whose credentials rotate (short-lived OAuth access tokens) names what stays the
   * same instead (the grant), so a refresh does not end the client's session.
   */
  sessionOwner?: (credential: string | undefined, context: unknown) => string | undefined;
  /** Long-lived event streams per client address and per session. */
  streamLimits?: StreamLimits;
  /** Told of each JSON-RPC request answered (undefined: cancelled, or a listen stream opened). */
  onAnswered?: AnsweredHook;
  /**
   * A session in use has its last-seen time written at most this often (default 5 s): what keeps
   * it from the idle sweep, so a small share of the idle time is enough, and a request that finds
   * it recent enough writes nothing.
   */
  touchEveryMs?: number;
  /**
   * Whether an error is an outage of the application's storage rather than a bug, and if so the
   * seconds to wait: such a request is answered 503 with Retry-After and a JSON-RPC -32006 whose
   * data.retryAfterMs says the same, never 500.
   */
  unavailable?: (err: unknown) => number | undefined;
};

export class McpHttpTransport {
  private readonly retryMs: number;
  private readonly streams: StreamLimits;
  private readonly legacy: LegacyPostDeps;
  readonly modern: ModernHttp;

  constructor(private readonly o: TransportOptions) {
    this.retryMs = o.retryMs ?? 1000;
    this.streams = o.streamLimits ?? new StreamLimits();
    this.modern = new ModernHttp(o.engine, this.streams, o.onAnswered);
    this.legacy = {
      engine: o.engine,
      hub: o.hub,
      maxBatch: o.maxBatch,
      retryMs: this.retryMs,
      admit: o.admit,
      onAnswered: o.onAnswered,
      ownerOf: (req, endpoint) => this.ownerOf(req, endpoint),
      session: (id, endpoint, req) => this.session(id, endpoint, req),
    };
  }

  /**
   * The node:http request listener for the MCP path. `context` is the application's own value for
   * this request (what its front door learned), handed to `resolve` and on to the handlers.
   */
  readonly handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    context?: unknown,
  ): Promise<void> => {
    try {
      await this.route(req, res, context);
    } catch (err) {
      const wait = this.o.unavailable?.(err);
      if (wait !== undefined) {
        if (!res.headersSent) send(res, unavailable(wait));
        else res.end();
        return;
      }
      if (!res.headersSent) {
        send(res, {
          status: 500,
          body: failure(null, { code: ErrorCode.InternalError, message: 'Internal error.' }),
        });
      } else res.end();
      throw err;
    }
  };

  private async route(req: IncomingMessage, res: ServerResponse, context: unknown): Promise<void> {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return send(res, { status: 204, headers: CORS_HEADERS });
    const client = clientAddressOf(req, this.o.trustProxy ?? false, this.o.clientAddress);
    const admitted = await this.o.admit?.(client.key, 1);
    if (admitted && !admitted.ok) {
      drain(req);
      return send(res, tooMany(admitted.message, admitted.retryAfterSeconds));
    }
    const endpoint = await this.o.resolve(req, context);
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
    if (method === 'POST') return this.post(req, res, endpoint, versionHeader, client);
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
    return this.openStream(req, res, session, client);
  }

  // ---- GET: the standalone stream, or the resumption of any stream ------------------------------

  private async openStream(
    req: IncomingMessage,
    res: ServerResponse,
    session: SessionRecord,
    client: ClientAddress,
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
    const release = this.streams.acquire(client.key, session.id);
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

  // ---- POST: the body read and parsed, then served by its era ----------------------------------

  private async post(
    req: IncomingMessage,
    res: ServerResponse,
    endpoint: Endpoint,
    versionHeader: string | undefined,
    client: ClientAddress,
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
        clientIp: client.address,
        clientKey: client.key,
        context: endpoint.context,
        owner: this.ownerOf(req, endpoint),
      });
    }
    return serveLegacyPost(this.legacy, {
      req,
      res,
      endpoint,
      versionHeader,
      body: parsed.value,
      client,
    });
  }

  private ownerOf(req: IncomingMessage, endpoint: Endpoint): string | undefined {
    const credential = credentialOf(req);
    return this.o.sessionOwner
      ? this.o.sessionOwner(credential, endpoint.context)
      : ownerOf(credential);
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
    if (
      !session ||
      session.scope !== endpoint.scope ||
      session.owner !== this.ownerOf(req, endpoint)
    )
      return undefined;
    const now = Date.now();
    if (now - session.lastSeenAt > (this.o.touchEveryMs ?? 5_000))
      await this.o.engine.sessions.touch(id, now);
    return session;
  }
}
