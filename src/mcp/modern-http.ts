// The 2026-07-28 era on the shared HTTP endpoint: which POSTs belong to it, the checks in the order
// the protocol gives them (one message per POST; the `_meta` envelope, -32602; headers disagreeing
// with the body, -32020; a version we do not speak, -32022; every one HTTP 400), and the response:
// JSON, or an SSE stream once the request sends progress or logs before its result. Closing that
// stream cancels the request. `subscriptions/listen` holds its stream open for change notifications.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_RESPONSE_HEADERS } from './cors.ts';
import type { McpEngine } from './engine.ts';
import { credentialOf, drain, rpcError, send, tooMany } from './http-reply.ts';
import {
  classify,
  ErrorCode,
  failure,
  RpcError,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc.ts';
import { tagged } from './listen.ts';
import { toolNamed } from './methods.ts';
import {
  handleModern,
  listenClosed,
  listenFilter,
  META,
  readEnvelope,
  type ModernExchange,
} from './modern.ts';
import { checkParamHeaders, checkStandardHeaders, headerOf, mismatch } from './modern-headers.ts';
import { Cancellation } from './request-context.ts';
import { SseSink } from './sse.ts';
import type { StreamLimits } from './stream-limits.ts';
import type { Surface } from './surface.ts';
import type { AnsweredHook } from './transport-types.ts';
import { ALL_PROTOCOL_VERSIONS, isModernVersion, MODERN_PROTOCOL_VERSION } from './versions.ts';

const RESPONSE_HEADERS: Record<string, string> = Object.assign({}, CORS_RESPONSE_HEADERS, {
  'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
});

/** Whether a parsed POST body belongs to the 2026-07-28 era: its `_meta` names a version, or its header does. */
export function isModernPost(body: unknown, versionHeader: string | undefined): boolean {
  if (versionHeader !== undefined && isModernVersion(versionHeader)) return true;
  if (!Array.isArray(body)) return claimsModern(body);
  for (const m of body) if (claimsModern(m)) return true;
  return false;
}

function claimsModern(message: unknown): boolean {
  const meta = (message as { params?: { _meta?: unknown } } | null)?.params?._meta;
  return typeof meta === 'object' && meta !== null && META.protocolVersion in meta;
}

function reject(
  res: ServerResponse,
  status: number,
  error: RpcError,
  id: JsonRpcRequest['id'] | null = null,
): void {
  send(res, { ...rpcError(status, error.toObject(), id), headers: RESPONSE_HEADERS });
}

/** HTTP status of an error answered in-band: an unknown method is 404, a missing client capability 400. */
function statusOf(response: JsonRpcResponse): number {
  if (!('error' in response)) return 200;
  if (response.error.code === ErrorCode.MethodNotFound) return 404;
  return response.error.code === ErrorCode.MissingRequiredClientCapability ? 400 : 200;
}

export type ModernPost = {
  req: IncomingMessage;
  res: ServerResponse;
  surface: Surface;
  scope: string;
  body: unknown;
  clientIp: string;
  /** The bucket per-address limits count the client in (default: clientIp). */
  clientKey?: string;
  /** The application's value for this request (Endpoint.context). */
  context?: unknown;
  /** Who owns what the request starts (tasks). */
  owner?: string;
};

export class ModernHttp {
  private readonly listening = new Set<() => void>();

  constructor(
    private readonly engine: McpEngine,
    private readonly limits: StreamLimits,
    private readonly onAnswered?: AnsweredHook,
  ) {}

  async serve(p: ModernPost): Promise<void> {
    const { req, res, body } = p;
    if (Array.isArray(body))
      return reject(
        res,
        400,
        new RpcError(
          ErrorCode.InvalidRequest,
          `JSON-RPC batches are not part of protocol ${MODERN_PROTOCOL_VERSION}: send one message per POST.`,
        ),
      );
    const c = classify(body);
    if (c.kind === 'invalid')
      return send(res, { status: 400, headers: RESPONSE_HEADERS, body: failure(c.id, c.error) });
    if (c.kind === 'response')
      return reject(
        res,
        400,
        new RpcError(
          ErrorCode.InvalidRequest,
          `Protocol ${MODERN_PROTOCOL_VERSION} takes no responses from clients: answer input requests by retrying the request with inputResponses.`,
        ),
      );
    // Cancelling is closing the request's stream; no client notification needs an answer.
    if (c.kind === 'notification') return send(res, { status: 202, headers: RESPONSE_HEADERS });
    const request = c.message;
    const envelope = readEnvelope(request.params);
    if (envelope instanceof RpcError) return reject(res, 400, envelope, request.id);
    const versionHeader = headerOf(req, 'mcp-protocol-version');
    if (versionHeader !== undefined && versionHeader !== envelope.protocolVersion) {
      return reject(
        res,
        400,
        mismatch(
          `MCP-Protocol-Version header value '${versionHeader}' does not match body value '${envelope.protocolVersion}'.`,
        ),
        request.id,
      );
    }
    const methodHeader = headerOf(req, 'mcp-method');
    if (methodHeader !== undefined && methodHeader !== request.method) {
      return reject(
        res,
        400,
        mismatch(
          `Mcp-Method header value '${methodHeader}' does not match body value '${request.method}'.`,
        ),
        request.id,
      );
    }
    if (envelope.protocolVersion !== MODERN_PROTOCOL_VERSION) {
      return reject(
        res,
        400,
        new RpcError(
          ErrorCode.UnsupportedProtocolVersion,
          `Unsupported protocol version: ${envelope.protocolVersion}. Supported: ${ALL_PROTOCOL_VERSIONS.join(', ')}.`,
          {
            supported: ALL_PROTOCOL_VERSIONS,
            requested: envelope.protocolVersion,
          },
        ),
        request.id,
      );
    }
    const headerProblem =
      checkStandardHeaders(req, request) ?? this.paramHeaders(req, p.surface, request);
    if (headerProblem) return reject(res, 400, headerProblem, request.id);

    const channel = new ResponseChannel(
      res,
      /text\/event-stream/i.test(headerOf(req, 'accept') ?? ''),
    );
    const ex: ModernExchange = {
      surface: p.surface,
      scope: p.scope,
      credential: credentialOf(req),
      owner: p.owner,
      clientIp: p.clientIp,
      context: p.context,
      envelope,
      channel,
      cancellation: channel.cancellation,
    };
    if (request.method === 'subscriptions/listen') return this.listen(p, request, ex);
    const response = await handleModern(this.engine, request, ex);
    const aborted = channel.cancellation.aborted;
    this.onAnswered?.(req, request, aborted ? undefined : response);
    if (!aborted) channel.finish(response, statusOf(response));
  }

  /** Mcp-Param-* of the tool a tools/call names, when that tool mirrors arguments into headers. */
  private paramHeaders(
    req: IncomingMessage,
    surface: Surface,
    request: JsonRpcRequest,
  ): RpcError | undefined {
    if (request.method !== 'tools/call') return undefined;
    const tool = toolNamed(surface, request.params?.name);
    return tool ? checkParamHeaders(req, tool, request.params?.arguments) : undefined;
  }

  /** A subscriptions/listen stream: acknowledged first, then the notifications its filter asked for. */
  private async listen(p: ModernPost, request: JsonRpcRequest, ex: ModernExchange): Promise<void> {
    const release = this.limits.acquire(p.clientKey ?? p.clientIp);
    if (!release) {
      drain(p.req);
      return send(
        p.res,
        tooMany(
          `Too many open event streams from this address (at most ${this.limits.caps.perClientIp}): close one first.`,
          5,
        ),
      );
    }
    let filter;
    try {
      filter = await listenFilter(this.engine, request, ex);
    } catch (err) {
      release();
      if (!(err instanceof RpcError)) throw err;
      return send(p.res, {
        status: 200,
        headers: RESPONSE_HEADERS,
        body: failure(request.id, err.toObject()),
      });
    }
    const sink = new SseSink(p.res, RESPONSE_HEADERS);
    sink.send(
      undefined,
      tagged(request.id, 'notifications/subscriptions/acknowledged', { notifications: filter }),
    );
    this.onAnswered?.(p.req, request, undefined);
    const remove = this.engine.listeners.add(p.scope, {
      id: request.id,
      filter,
      send: (m) => sink.send(undefined, m),
    });
    const close = () => {
      sink.send(undefined, listenClosed(p.surface, request.id));
      sink.end();
    };
    this.listening.add(close);
    sink.onClose = () => {
      remove();
      release();
      this.listening.delete(close);
    };
  }

  /** Ends every listen stream gracefully (the server is shutting down). */
  closeAll(): void {
    for (const close of [...this.listening]) close();
  }
}

/**
 * A modern request's response: plain JSON until it sends something before its result, then SSE.
 * Closing it cancels the request; that is listened for once a handler watches for cancellation or
 * the response becomes a stream, which a quick call never does (a listener per request costs).
 */
class ResponseChannel {
  finished = false;
  readonly cancellation = new Cancellation(this);
  private sink: SseSink | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly canStream: boolean,
  ) {}

  /** Cancellation's hook: from now on a closed response cancels the request. */
  watch(c: Cancellation): void {
    this.res.once('close', () => {
      if (!this.finished) c.cancel('the client closed the response stream');
    });
  }

  async send(message: JsonRpcMessage): Promise<boolean> {
    if (this.finished || !this.canStream) return false;
    if (!this.sink) {
      this.sink = new SseSink(this.res, RESPONSE_HEADERS);
      void this.cancellation.signal;
    }
    this.sink.send(undefined, message);
    return true;
  }

  finish(response: JsonRpcResponse, status: number): void {
    this.finished = true;
    if (!this.sink) return send(this.res, { status, headers: RESPONSE_HEADERS, body: response });
    this.sink.send(undefined, response);
    this.sink.end();
  }
}
