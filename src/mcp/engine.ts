// The MCP protocol engine: one JSON-RPC request in, one response out, for whatever Surface the
// transport resolved. It knows nothing of HTTP; the transport hands it an Exchange describing the
// request (credential, session, a channel for messages sent while the request runs).
import { randomBytes } from 'node:crypto';
import type { EngineLogger, RequestContext, LogLevel } from './context.ts';
import { LOG_LEVELS } from './context.ts';
import {
  ErrorCode,
  ErrorText,
  RpcError,
  failure,
  success,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc.ts';
import type { SessionRecord, SessionStore } from './session-store.ts';
import type { Surface, ToolDef, ToolResult } from './surface.ts';
import type { McpBus } from './bus.ts';
import { runTool } from './run-tool.ts';
import { complete, findResource, getPrompt, readResource } from './content-methods.ts';
import { negotiateVersion, PREFERRED_PROTOCOL_VERSION } from './versions.ts';

/** Where messages produced while a request runs go (its SSE stream, or the session's stream). */
export type Channel = {
  send(message: JsonRpcMessage): Promise<boolean>;
  close(): void;
};

export type Exchange = {
  surface: Surface;
  /** The endpoint this request reached (e.g. the host); sessions are bound to it. */
  scope: string;
  credential?: string;
  clientIp: string;
  /** The protocol version named by the request's header, if any. */
  protocolVersion?: string;
  session?: SessionRecord;
  channel?: Channel;
  /** Set by `initialize` when it opened a session; the transport returns it as Mcp-Session-Id. */
  createdSessionId?: string;
};

/** Delivers a server-initiated message to a session (its standalone stream, or its event log). */
export type SessionOutbox = (sessionId: string, message: JsonRpcMessage) => Promise<void>;

export type { EngineLogger } from './context.ts';

type PendingClientRequest = { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout };

const NEVER_ABORTED: AbortSignal = new AbortController().signal;

export class McpEngine {
  private readonly inflight = new Map<string, AbortController>();
  private readonly pendingClientRequests = new Map<string, PendingClientRequest>();
  private nextServerRequestId = 1;
  private outbox: SessionOutbox = async () => {};

  constructor(
    readonly sessions: SessionStore,
    private readonly logger: EngineLogger,
    private readonly options: { sessionsEnabled?: boolean; bus?: McpBus } = {},
  ) {
    // A client's answer or cancellation may reach another instance than the one running the request.
    options.bus?.subscribe((m) => {
      if (m.t === 'response') this.resolveClientRequest(m.session, m.message);
      else if (m.t === 'cancel') this.inflight.get(inflightKey(m.session, m.requestId))?.abort(m.reason ?? 'cancelled');
    });
  }

  /** The transport plugs in its stream hub here, so out-of-request notifications reach clients. */
  setOutbox(outbox: SessionOutbox): void {
    this.outbox = outbox;
  }

  // ---- requests -------------------------------------------------------------------------------

  /** Answers one request; `undefined` when the client cancelled it (no response is owed). */
  async handleRequest(request: JsonRpcRequest, exchange: Exchange): Promise<JsonRpcResponse | undefined> {
    const key = exchange.session ? inflightKey(exchange.session.id, request.id) : undefined;
    // Only a request within a session can be cancelled (notifications/cancelled names it by session).
    const abort = key ? new AbortController() : undefined;
    if (key) this.inflight.set(key, abort!);
    const signal = abort?.signal ?? NEVER_ABORTED;
    try {
      const result = await this.dispatch(request, exchange, signal);
      if (signal.aborted) return undefined;
      return success(request.id, result);
    } catch (err) {
      if (signal.aborted) return undefined;
      if (err instanceof RpcError) return failure(request.id, err.toObject());
      this.logger.error({ err, method: request.method }, 'MCP method failed');
      return failure(request.id, { code: ErrorCode.InternalError, message: 'Internal error.' });
    } finally {
      if (key) this.inflight.delete(key);
    }
  }

  async handleNotification(message: JsonRpcNotification, exchange: Exchange): Promise<void> {
    if (message.method === 'notifications/cancelled' && exchange.session) {
      const requestId = message.params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        const reason = typeof message.params?.reason === 'string' ? message.params.reason : 'cancelled';
        const local = this.inflight.get(inflightKey(exchange.session.id, requestId));
        if (local) local.abort(reason);
        else this.options.bus?.publish({ t: 'cancel', session: exchange.session.id, requestId, reason });
      }
    }
    // notifications/initialized, progress, roots/list_changed: accepted; nothing to do statelessly.
  }

  /** A client's answer to one of our server-to-client requests. */
  handleClientResponse(message: JsonRpcResponse, exchange: Exchange): void {
    if (!exchange.session) return;
    if (!this.resolveClientRequest(exchange.session.id, message)) {
      this.options.bus?.publish({ t: 'response', session: exchange.session.id, message });
    }
  }

  /** Settles a pending server-to-client request of this process; false when it is not ours. */
  private resolveClientRequest(sessionId: string, message: JsonRpcResponse): boolean {
    const key = inflightKey(sessionId, message.id ?? '');
    const pending = this.pendingClientRequests.get(key);
    if (!pending) return false;
    this.pendingClientRequests.delete(key);
    clearTimeout(pending.timer);
    if ('error' in message) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
    return true;
  }

  private async dispatch(request: JsonRpcRequest, ex: Exchange, signal: AbortSignal): Promise<unknown> {
    const params = request.params ?? {};
    const ctx = this.context(request, ex, signal);
    const surface = ex.surface;
    switch (request.method) {
      case 'initialize':
        return this.initialize(params, ex);
      case 'ping':
        return {};
      case 'tools/list':
        return { tools: surface.tools.map(listedTool) };
      case 'tools/call':
        return this.callTool(params, surface, ctx);
      case 'prompts/list':
        return { prompts: surface.prompts.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })) };
      case 'prompts/get':
        return around(surface, ctx, () => getPrompt(params, surface, ctx));
      case 'resources/list':
        return { resources: surface.resources.map(({ uri, name, title, description, mimeType }) => ({ uri, name, title, description, mimeType })) };
      case 'resources/templates/list':
        return {
          resourceTemplates: surface.templates.map(({ uriTemplate, name, title, description, mimeType }) => ({ uriTemplate, name, title, description, mimeType })),
        };
      case 'resources/read':
        return around(surface, ctx, () => readResource(params, surface, ctx));
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        return around(surface, ctx, () => this.subscription(request.method === 'resources/subscribe', params, surface, ex));
      case 'completion/complete':
        return around(surface, ctx, () => complete(params, surface, ctx));
      case 'logging/setLevel':
        return this.setLogLevel(params, ex);
      default:
        throw new RpcError(ErrorCode.MethodNotFound, ErrorText.unknownMethod(request.method));
    }
  }

  private async initialize(params: Record<string, unknown>, ex: Exchange) {
    const protocolVersion = negotiateVersion(params.protocolVersion);
    const { surface } = ex;
    const capabilities: Record<string, unknown> = {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
      logging: {},
    };
    if (this.options.sessionsEnabled !== false && !ex.session) {
      const now = Date.now();
      const id = randomBytes(18).toString('base64url');
      const clientInfo = isRecord(params.clientInfo) ? (params.clientInfo as SessionRecord['clientInfo']) : undefined;
      await this.sessions.create({
        id,
        scope: ex.scope,
        protocolVersion,
        clientInfo,
        clientCapabilities: isRecord(params.capabilities) ? params.capabilities : {},
        subscriptions: [],
        createdAt: now,
        lastSeenAt: now,
      });
      ex.createdSessionId = id;
    }
    return {
      protocolVersion,
      capabilities,
      serverInfo: surface.serverInfo,
      ...(surface.instructions ? { instructions: surface.instructions } : {}),
    };
  }

  private async callTool(params: Record<string, unknown>, surface: Surface, ctx: RequestContext): Promise<ToolResult> {
    const { name, arguments: args } = params;
    if (typeof name !== 'string' || (args !== undefined && !isRecord(args))) {
      throw new RpcError(ErrorCode.InvalidParams, ErrorText.expectedNameArguments);
    }
    const tool = surface.tools.find((t) => t.name === name);
    if (!tool) throw new RpcError(ErrorCode.MethodNotFound, ErrorText.unknownTool(name));
    return runTool(tool, (args as Record<string, unknown> | undefined) ?? {}, ctx, this.logger);
  }

  private async subscription(subscribe: boolean, params: Record<string, unknown>, surface: Surface, ex: Exchange) {
    const uri = params.uri;
    if (typeof uri !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'Expected { uri }.');
    if (!ex.session) {
      throw new RpcError(ErrorCode.InvalidRequest, 'Subscriptions need a session: send initialize, then echo its Mcp-Session-Id header on every request.');
    }
    if (subscribe && !findResource(surface, uri)) throw new RpcError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    const current = new Set(ex.session.subscriptions);
    if (subscribe) current.add(uri);
    else current.delete(uri);
    ex.session.subscriptions = [...current];
    await this.sessions.update(ex.session.id, { subscriptions: ex.session.subscriptions });
    return {};
  }

  private async setLogLevel(params: Record<string, unknown>, ex: Exchange) {
    const level = params.level;
    if (typeof level !== 'string' || !(LOG_LEVELS as readonly string[]).includes(level)) {
      throw new RpcError(ErrorCode.InvalidParams, `level must be one of: ${LOG_LEVELS.join(', ')}`);
    }
    if (ex.session) {
      ex.session.logLevel = level as LogLevel;
      await this.sessions.update(ex.session.id, { logLevel: level as LogLevel });
    }
    return {};
  }

  // ---- what handlers may do while they run ------------------------------------------------------

  private context(request: JsonRpcRequest, ex: Exchange, signal: AbortSignal): RequestContext {
    return new RequestCtx(this, request, ex, signal);
  }

  /** @internal used by RequestCtx */
  sendFor(ex: Exchange, signal: AbortSignal, message: JsonRpcMessage): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (ex.channel) return ex.channel.send(message);
    if (ex.session) return this.outbox(ex.session.id, message).then(() => true);
    return Promise.resolve(false);
  }

  /** @internal */
  askClient(ex: Exchange, signal: AbortSignal, method: string, params: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    return this.requestClient(ex, (m) => this.sendFor(ex, signal, m), signal, method, params, timeoutMs);
  }

  private requestClient(
    ex: Exchange,
    send: (m: JsonRpcMessage) => Promise<boolean>,
    signal: AbortSignal,
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<unknown> {
    const session = ex.session;
    if (!session) return Promise.reject(new Error('Asking the client needs a session: the client must keep its Mcp-Session-Id.'));
    const capability = method === 'sampling/createMessage' ? 'sampling' : method === 'elicitation/create' ? 'elicitation' : undefined;
    if (capability && !session.clientCapabilities[capability]) {
      return Promise.reject(new Error(`The client did not declare the "${capability}" capability.`));
    }
    const id: JsonRpcId = `srv-${this.nextServerRequestId++}`;
    const key = inflightKey(session.id, id);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingClientRequests.delete(key);
        reject(new Error(`The client did not answer ${method} within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pendingClientRequests.set(key, { resolve, reject, timer });
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        this.pendingClientRequests.delete(key);
        reject(new Error('Request cancelled.'));
      }, { once: true });
      send({ jsonrpc: '2.0', id, method, params }).then((sent) => {
        if (!sent) {
          clearTimeout(timer);
          this.pendingClientRequests.delete(key);
          reject(new Error('There is no stream to reach the client on: accept text/event-stream or open a GET stream.'));
        }
      }, reject);
    });
  }

  // ---- server-initiated notifications ----------------------------------------------------------

  /**
   * notifications/{tools,prompts,resources}/list_changed to the sessions of a scope (those `only`
   * accepts: with several instances, each tells the sessions whose streams it holds).
   */
  async notifyListChanged(scope: string, list: 'tools' | 'prompts' | 'resources', only: (sessionId: string) => boolean = () => true): Promise<number> {
    const ids = (await this.sessions.listIds(scope)).filter(only);
    await Promise.all(ids.map((id) => this.outbox(id, { jsonrpc: '2.0', method: `notifications/${list}/list_changed` })));
    return ids.length;
  }

  /** notifications/resources/updated to the sessions of a scope subscribed to `uri`. */
  async notifyResourceUpdated(scope: string, uri: string): Promise<number> {
    let n = 0;
    for (const id of await this.sessions.listIds(scope)) {
      const session = await this.sessions.get(id);
      if (!session?.subscriptions.includes(uri)) continue;
      await this.outbox(id, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
      n++;
    }
    return n;
  }
}

/** Runs a content method inside the surface's `around` hook, if it has one. */
function around<T>(surface: Surface, ctx: RequestContext, run: () => Promise<T>): Promise<T> {
  return surface.around ? surface.around(ctx.method, ctx, run) : run();
}

function listedTool(t: ToolDef) {
  return {
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: t.inputSchema,
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    ...(t.annotations ? { annotations: t.annotations } : {}),
    ...(t._meta ? { _meta: t._meta } : {}),
  };
}


function inflightKey(sessionId: string, id: JsonRpcId): string {
  return `${sessionId}\u0000${typeof id}:${id}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}



/** A request's context as a class: its methods live on the prototype, not as per-request closures. */
class RequestCtx implements RequestContext {
  readonly requestId: JsonRpcId;
  readonly method: string;
  readonly protocolVersion: string;
  readonly credential?: string;
  readonly clientIp: string;
  readonly session?: SessionRecord;
  readonly meta: Record<string, unknown>;
  constructor(
    private readonly engine: McpEngine,
    request: JsonRpcRequest,
    private readonly ex: Exchange,
    readonly signal: AbortSignal,
  ) {
    this.requestId = request.id;
    this.method = request.method;
    this.protocolVersion = ex.session?.protocolVersion ?? ex.protocolVersion ?? PREFERRED_PROTOCOL_VERSION;
    this.credential = ex.credential;
    this.clientIp = ex.clientIp;
    this.session = ex.session;
    this.meta = isRecord(request.params?._meta) ? request.params._meta : {};
  }
  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.meta.progressToken;
    if (typeof progressToken !== 'string' && typeof progressToken !== 'number') return;
    const params: Record<string, unknown> = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message) params.message = message;
    await this.engine.sendFor(this.ex, this.signal, { jsonrpc: '2.0', method: 'notifications/progress', params });
  }
  async log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = (this.ex.session?.logLevel ?? 'info') as LogLevel;
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold)) return;
    const params: Record<string, unknown> = { level, data };
    if (logger) params.logger = logger;
    await this.engine.sendFor(this.ex, this.signal, { jsonrpc: '2.0', method: 'notifications/message', params });
  }
  requestClient(method: string, params: Record<string, unknown>, timeoutMs = 60_000): Promise<unknown> {
    return this.engine.askClient(this.ex, this.signal, method, params, timeoutMs);
  }
  closeStream(): void {
    this.ex.channel?.close();
  }
}
