// The MCP protocol engine: one JSON-RPC request in, one response out, for whatever Surface the
// transport resolved. This file serves the legacy era (2025-11-25 and older: initialize, sessions,
// subscriptions, server-to-client requests) and the notifications that reach clients outside a
// request; modern.ts serves 2026-07-28 with the same methods (methods.ts). It knows nothing of HTTP:
// the transport hands it an Exchange describing the request.
import { createHash, randomBytes } from 'node:crypto';
import type { McpBus } from './bus.ts';
import { ClientRequests, inflightKey } from './client-requests.ts';
import type { EngineLogger, LogLevel } from './context.ts';
import { LOG_LEVELS } from './context.ts';
import { findResource } from './content-methods.ts';
import { InputRequired, INPUT_METHODS, RequestStateCodec } from './input-required.ts';
import {
  ErrorCode,
  ErrorText,
  RpcError,
  failure,
  success,
  unavailableError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc.ts';
import { ListenHub } from './listen.ts';
import { around, serveShared, SHARED_METHODS } from './methods.ts';
import { askOverSession, Cancellation, RequestCtx, type Delivery } from './request-context.ts';
import type { SessionCaps, SessionRecord, SessionStore } from './session-store.ts';
import type { Surface } from './surface.ts';
import { negotiateVersion } from './versions.ts';
import { boundedCapabilities, boundedClientInfo } from './client-info.ts';
import { capabilitiesOf } from './capabilities.ts';
import { serveSkills, SKILL_METHODS } from './skills.ts';
import { RunAsTask, runInline, TaskRegistry, type TaskOptions } from './tasks.ts';

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
  /** Who owns a session this request opens or uses (default: a hash of its credential). */
  owner?: string;
  clientIp: string;
  /** The application's value for this request (Endpoint.context). */
  context?: unknown;
  /** The bucket per-address limits count the client in (default: clientIp); sessions are capped by it. */
  clientKey?: string;
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

export type EngineOptions = {
  sessionsEnabled?: boolean;
  bus?: McpBus;
  /** Sessions per client address and per credential (default 100 and 50). */
  sessionCaps?: SessionCaps;
  /** How long tasks are kept, and how many one caller may run (Tasks extension). */
  tasks?: TaskOptions;
  /** Whether a method's failure is an outage, and the seconds to wait (see TransportOptions). */
  unavailable?: (err: unknown) => number | undefined;
};

/** Who owns a session: a hash of the credential that opened it (never the credential itself). */
export function ownerOf(credential: string | undefined): string | undefined {
  return credential
    ? createHash('sha256').update(credential).digest('base64url').slice(0, 32)
    : undefined;
}

export class McpEngine {
  private readonly inflight = new Map<string, Cancellation>();
  private readonly clientRequests: ClientRequests;
  private outbox: SessionOutbox = async () => {};
  readonly listeners = new ListenHub();
  readonly tasks: TaskRegistry;
  readonly stateCodec: RequestStateCodec;
  private readonly caps: SessionCaps;

  constructor(
    readonly sessions: SessionStore,
    readonly logger: EngineLogger,
    private readonly options: EngineOptions = {},
  ) {
    this.clientRequests = new ClientRequests(options.bus);
    this.caps = options.sessionCaps ?? { perClientIp: 100, perOwner: 50 };
    this.tasks = new TaskRegistry(
      (scope, task) => this.listeners.taskChanged(scope, task),
      options.tasks,
    );
    this.stateCodec = new RequestStateCodec(() => sessions.sharedSecret());
    // A client's answer or cancellation may reach another instance than the one running the request;
    // a resource update written on another instance reaches the listen streams held here.
    options.bus?.subscribe((m) => {
      if (m.t === 'response') this.clientRequests.settle(m.session, m.message);
      else if (m.t === 'cancel')
        this.inflight.get(inflightKey(m.session, m.requestId))?.cancel(m.reason ?? 'cancelled');
      else if (m.t === 'updated') this.listeners.resourceUpdated(m.scope, m.uri);
      else if (m.t === 'resync') this.listeners.resync();
    });
  }

  /** Whether a method's failure is an outage, and the seconds to wait (undefined: a bug). */
  unavailable(err: unknown): number | undefined {
    return this.options.unavailable?.(err);
  }

  /** The transport plugs in its stream hub here, so out-of-request notifications reach clients. */
  setOutbox(outbox: SessionOutbox): void {
    this.outbox = outbox;
  }

  // ---- requests of the legacy era ----------------------------------------------------------------

  /** Answers one request; `undefined` when the client cancelled it (no response is owed). */
  async handleRequest(
    request: JsonRpcRequest,
    exchange: Exchange,
  ): Promise<JsonRpcResponse | undefined> {
    const key = exchange.session ? inflightKey(exchange.session.id, request.id) : undefined;
    // Only a request within a session can be cancelled (notifications/cancelled names it by session).
    const cancellation = new Cancellation();
    if (key) this.inflight.set(key, cancellation);
    try {
      const result = await this.dispatch(request, exchange, cancellation);
      if (cancellation.aborted) return undefined;
      return success(request.id, result);
    } catch (err) {
      if (cancellation.aborted) return undefined;
      if (err instanceof RpcError) return failure(request.id, err.toObject());
      const wait = this.unavailable(err);
      if (wait !== undefined) return failure(request.id, unavailableError(wait));
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
        const reason =
          typeof message.params?.reason === 'string' ? message.params.reason : 'cancelled';
        const local = this.inflight.get(inflightKey(exchange.session.id, requestId));
        if (local) local.cancel(reason);
        else
          this.options.bus?.publish({
            t: 'cancel',
            session: exchange.session.id,
            requestId,
            reason,
          });
      }
    }
    // notifications/initialized, progress, roots/list_changed: accepted; nothing to do statelessly.
  }

  /** A client's answer to one of our server-to-client requests. */
  handleClientResponse(message: JsonRpcResponse, exchange: Exchange): void {
    if (exchange.session) this.clientRequests.answer(exchange.session.id, message);
  }

  private async dispatch(
    request: JsonRpcRequest,
    ex: Exchange,
    cancellation: Cancellation,
  ): Promise<unknown> {
    const params = request.params ?? {};
    const { surface } = ex;
    const session = ex.session;
    const ctx = new RequestCtx(
      request,
      {
        era: 'legacy',
        protocolVersion:
          session?.protocolVersion ?? ex.protocolVersion ?? negotiateVersion(undefined),
        credential: ex.credential,
        clientIp: ex.clientIp,
        context: ex.context,
        session,
        clientCapabilities: session?.clientCapabilities ?? {},
        logLevel: session ? ((session.logLevel ?? 'info') as LogLevel) : undefined,
      },
      new LegacyDelivery(ex, cancellation, this.outbox, this.clientRequests),
      cancellation,
    );
    if (SHARED_METHODS.has(request.method)) {
      // Only a session gives a way back to the client: without one there is nobody to ask.
      const outcome =
        session && INPUT_METHODS.has(request.method)
          ? await askOverSession(ctx, () =>
              serveShared(request.method, params, surface, ctx, this.logger),
            )
          : await serveShared(request.method, params, surface, ctx, this.logger);
      if (outcome instanceof InputRequired) return this.cannotAsk(request.method, outcome);
      // Tasks are not part of this era: the work runs within the request.
      if (outcome instanceof RunAsTask) return runInline(outcome, ctx);
      return outcome;
    }
    if (SKILL_METHODS.has(request.method))
      return around(surface, ctx, () => serveSkills(request.method, params, surface));
    switch (request.method) {
      case 'initialize':
        return this.initialize(params, ex);
      case 'ping':
        return {};
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        return around(surface, ctx, () =>
          this.subscription(request.method === 'resources/subscribe', params, surface, ex),
        );
      case 'logging/setLevel':
        return this.setLogLevel(params, ex);
      default:
        throw new RpcError(ErrorCode.MethodNotFound, ErrorText.unknownMethod(request.method));
    }
  }

  /** A handler still needs input after the legacy era could not get it from the client. */
  private cannotAsk(method: string, asked: InputRequired): unknown {
    const needs = [...new Set(Object.values(asked.requests).map((r) => r.method))].join(', ');
    const message = `This request needs input from the client (${needs}) that this client could not give: use a session with a client that declares the capability, or protocol 2026-07-28.`;
    if (method !== 'tools/call') throw new RpcError(ErrorCode.InvalidRequest, message);
    return {
      content: [{ type: 'text', text: message }],
      structuredContent: { error: message },
      isError: true,
    };
  }

  private async initialize(params: Record<string, unknown>, ex: Exchange) {
    const protocolVersion = negotiateVersion(params.protocolVersion);
    const { surface } = ex;
    const capabilities = capabilitiesOf(surface, 'legacy');
    if (this.options.sessionsEnabled !== false && !ex.session) {
      const now = Date.now();
      const id = randomBytes(18).toString('base64url');
      await this.sessions.create(
        {
          id,
          scope: ex.scope,
          owner: ex.owner ?? ownerOf(ex.credential),
          clientIp: ex.clientKey ?? ex.clientIp,
          protocolVersion,
          clientInfo: boundedClientInfo(params.clientInfo),
          clientCapabilities: boundedCapabilities(params.capabilities),
          subscriptions: [],
          createdAt: now,
          lastSeenAt: now,
        },
        this.caps,
      );
      ex.createdSessionId = id;
    }
    return {
      protocolVersion,
      capabilities,
      serverInfo: surface.serverInfo,
      ...(surface.instructions ? { instructions: surface.instructions } : {}),
    };
  }

  private async subscription(
    subscribe: boolean,
    params: Record<string, unknown>,
    surface: Surface,
    ex: Exchange,
  ) {
    const uri = params.uri;
    if (typeof uri !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'Expected { uri }.');
    if (!ex.session) {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        'Subscriptions need a session: send initialize, then echo its Mcp-Session-Id header on every request.',
      );
    }
    if (subscribe && !findResource(surface, uri))
      throw new RpcError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    const current = new Set(ex.session.subscriptions);
    if (subscribe) current.add(uri);
    else current.delete(uri);
    if (current.size > MAX_SUBSCRIPTIONS)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `At most ${MAX_SUBSCRIPTIONS} subscriptions per session: unsubscribe from some first.`,
      );
    const subscriptions = [...current];
    await this.sessions.update(ex.session.id, { subscriptions });
    ex.session.subscriptions = subscriptions;
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

  // ---- server-initiated notifications (both eras) ---------------------------------------------

  /**
   * notifications/{tools,prompts,resources}/list_changed to the sessions of a scope, or only to
   * those of `among` that belong to it (with several instances, each tells the sessions whose
   * streams it holds: a few, looked up one by one, rather than every session of the scope), and to
   * the listen streams this instance holds.
   */
  async notifyListChanged(
    scope: string,
    list: 'tools' | 'prompts' | 'resources',
    among?: Iterable<string>,
  ): Promise<number> {
    this.listeners.listChanged(scope, list);
    let ids: string[];
    if (among) {
      ids = [];
      for (const id of among) if ((await this.sessions.get(id))?.scope === scope) ids.push(id);
    } else ids = await this.sessions.listIds(scope);
    await Promise.all(
      ids.map((id) =>
        this.outbox(id, { jsonrpc: '2.0', method: `notifications/${list}/list_changed` }),
      ),
    );
    return ids.length;
  }

  /**
   * notifications/resources/updated to the sessions subscribed to `uri` (an index lookup) and to
   * the listen streams that asked for it, here and on every other instance.
   */
  async notifyResourceUpdated(scope: string, uri: string): Promise<number> {
    this.listeners.resourceUpdated(scope, uri);
    this.options.bus?.publish({ t: 'updated', scope, uri });
    const ids = await this.sessions.subscribers(scope, uri);
    for (const id of ids)
      await this.outbox(id, {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri },
      });
    return ids.length;
  }
}

/** Where a legacy request's messages go: its own SSE stream, or the session's stream. */
class LegacyDelivery implements Delivery {
  constructor(
    private readonly ex: Exchange,
    private readonly cancellation: Cancellation,
    private readonly outbox: SessionOutbox,
    private readonly clientRequests: ClientRequests,
  ) {}
  async send(m: JsonRpcMessage): Promise<boolean> {
    if (this.ex.channel) return this.ex.channel.send(m);
    if (this.ex.session) return this.outbox(this.ex.session.id, m).then(() => true);
    return Promise.resolve(false);
  }
  async request(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<unknown> {
    return this.clientRequests.ask(
      this.ex.session,
      (m) => this.send(m),
      this.cancellation.signal,
      method,
      params,
      timeoutMs,
    );
  }
  close(): void {
    this.ex.channel?.close();
  }
}

/** At most this many resource subscriptions per session. */
const MAX_SUBSCRIPTIONS = 100;
