// The 2026-07-28 era: no handshake and no session; every request carries its protocol version and
// client capabilities (optionally client info and a log level) in `_meta`. Served from the same
// Surface and methods as the legacy era, every result carries resultType and the server's identity,
// lists and reads carry caching hints. A handler that needs the client's input answers
// input_required with its state sealed; the client retries with the answers (inputResponses).
import type { LogLevel } from './context.ts';
import { LOG_LEVELS } from './context.ts';
import { resourceTtl } from './content-methods.ts';
import type { McpEngine } from './engine.ts';
import {
  bindingOf,
  CAPABILITY_OF,
  InputRequired,
  inputRequiredResult,
  INPUT_METHODS,
  readInputResponses,
} from './input-required.ts';
import {
  ErrorCode,
  ErrorText,
  RpcError,
  failure,
  success,
  unavailableError,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc.ts';
import { findResource } from './content-methods.ts';
import type { ListenFilter } from './listen.ts';
import { around, isRecord, serveShared, SHARED_METHODS } from './methods.ts';
import { RequestCtx, type Cancellation, type Delivery } from './request-context.ts';
import type { Surface } from './surface.ts';
import { capabilitiesOf } from './capabilities.ts';
import { serveSkills, SKILL_METHODS } from './skills.ts';
import { missingTasks, RunAsTask, runInline, tasksDeclared } from './tasks.ts';
import { ALL_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION } from './versions.ts';
import { frozenJson } from './wire.ts';

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

export type Envelope = {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  logLevel?: LogLevel;
};

/** The request's `_meta` envelope, or the -32602 naming what is missing or malformed. */
function problem(what: string): RpcError {
  return new RpcError(
    ErrorCode.InvalidParams,
    `Invalid _meta for protocol ${MODERN_PROTOCOL_VERSION}: ${what}.`,
    { missingOrInvalid: what },
  );
}

export function readEnvelope(params: Record<string, unknown> | undefined): Envelope | RpcError {
  const meta = params?._meta;
  if (!isRecord(meta))
    return problem(`_meta is required with ${META.protocolVersion} and ${META.clientCapabilities}`);
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string' || !version)
    return problem(`${META.protocolVersion} must be a version string`);
  const capabilities = meta[META.clientCapabilities];
  if (!isRecord(capabilities)) return problem(`${META.clientCapabilities} must be an object`);
  const info = meta[META.clientInfo];
  if (info !== undefined && !isRecord(info)) return problem(`${META.clientInfo} must be an object`);
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !(LOG_LEVELS as readonly unknown[]).includes(logLevel))
    return problem(`${META.logLevel} must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    logLevel: logLevel as LogLevel | undefined,
  };
}

/** What the transport knows about one modern request. */
export type ModernExchange = {
  surface: Surface;
  scope: string;
  credential?: string;
  /** Who the request's tasks belong to (the application's session owner, or a hash of the credential). */
  owner?: string;
  clientIp: string;
  /** The application's value for this request (Endpoint.context). */
  context?: unknown;
  envelope: Envelope;
  /** The request's own response stream: notifications sent there arrive before its result (progress, logs). */
  channel: { send(message: JsonRpcMessage): Promise<boolean> };
  /** Cancelled when the client closes the response stream. */
  cancellation: Cancellation;
};

/** The lists a client may cache (resources/read carries its own resource's hint). */
const CACHEABLE_LISTS = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
]);

/** Answers one modern request (everything but subscriptions/listen, which holds its stream: modern-http.ts). */
export async function handleModern(
  engine: McpEngine,
  request: JsonRpcRequest,
  ex: ModernExchange,
): Promise<JsonRpcResponse> {
  try {
    const result = await dispatch(engine, request, ex);
    return success(request.id, result);
  } catch (err) {
    if (err instanceof RpcError) {
      // Resource not found is a bad parameter since 2026-07-28 (it was -32002).
      const e =
        err.code === ErrorCode.ResourceNotFound
          ? new RpcError(ErrorCode.InvalidParams, err.message, err.data)
          : err;
      return failure(request.id, e.toObject());
    }
    const wait = engine.unavailable(err);
    if (wait !== undefined) return failure(request.id, unavailableError(wait));
    engine.logger.error({ err, method: request.method }, 'MCP method failed');
    return failure(request.id, { code: ErrorCode.InternalError, message: 'Internal error.' });
  }
}

async function dispatch(
  engine: McpEngine,
  request: JsonRpcRequest,
  ex: ModernExchange,
): Promise<Record<string, unknown>> {
  const { surface } = ex;
  if (request.method === 'server/discover') return discoverResult(surface);
  const params = request.params ?? {};
  if (TASK_METHODS.has(request.method)) {
    // Each task request is authenticated like any other: a revoked key no longer reaches its tasks.
    const result = await around(surface, contextOf(request, ex), async () =>
      taskMethod(engine, request, ex),
    );
    return complete(surface, result);
  }
  if (SKILL_METHODS.has(request.method)) {
    const ctx = contextOf(request, ex);
    const result = await around(surface, ctx, () => serveSkills(request.method, params, surface));
    return complete(surface, Object.assign(result, cacheHints(surface, 0)));
  }
  if (!SHARED_METHODS.has(request.method))
    throw new RpcError(ErrorCode.MethodNotFound, ErrorText.unknownMethod(request.method));
  const ctx = contextOf(request, ex);
  if (INPUT_METHODS.has(request.method)) {
    // Hashing the binding costs more than a simple call: done only when state is opened or sealed.
    if (params.inputResponses !== undefined)
      ctx.inputResponses = readInputResponses(params.inputResponses);
    if (params.requestState !== undefined)
      ctx.state = await engine.stateCodec.open(
        params.requestState,
        bindingOf(request.method, params, ex.credential),
      );
    const outcome = await serveShared(request.method, params, surface, ctx, engine.logger);
    if (outcome instanceof InputRequired) {
      for (const r of Object.values(outcome.requests))
        ctx.requireCapability(CAPABILITY_OF[r.method]);
      const sealed = await engine.stateCodec.seal(
        bindingOf(request.method, params, ex.credential),
        outcome.state,
      );
      return withServerInfo(surface, inputRequiredResult(outcome, sealed));
    }
    if (outcome instanceof RunAsTask) {
      if (!tasksDeclared(ctx)) return complete(surface, { ...(await runInline(outcome, ctx)) });
      const task = engine.tasks.start(ex.scope, ex.owner ?? '', outcome);
      const soon = await engine.tasks.completedWithin(
        task.taskId,
        outcome.options.answerWithinMs ?? 0,
      );
      if (soon) return complete(surface, { ...soon });
      return withServerInfo(surface, { ...task, resultType: 'task' });
    }
    const result = outcome as Record<string, unknown>;
    if (request.method !== 'resources/read') return complete(surface, result);
    // A read that answered input depends on what the client said: fresh for no time at all.
    const ttl = params.inputResponses === undefined ? resourceTtl(surface, params.uri) : 0;
    return complete(surface, Object.assign(result, cacheHints(surface, ttl)));
  }
  const result = (await serveShared(request.method, params, surface, ctx, engine.logger)) as Record<
    string,
    unknown
  >;
  return complete(
    surface,
    CACHEABLE_LISTS.has(request.method)
      ? Object.assign(result, cacheHints(surface, surface.cache?.listTtlMs ?? 0))
      : result,
  );
}

const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** tasks/get, tasks/update and tasks/cancel, for the caller's own tasks on this endpoint. */
function taskMethod(
  engine: McpEngine,
  request: JsonRpcRequest,
  ex: ModernExchange,
): Record<string, unknown> {
  if (!tasksDeclared({ era: 'modern', clientCapabilities: ex.envelope.clientCapabilities }))
    throw missingTasks(request.method);
  const params = request.params ?? {};
  const owner = ex.owner ?? '';
  if (request.method === 'tasks/get')
    return { ...engine.tasks.get(ex.scope, owner, params.taskId) };
  if (request.method === 'tasks/update')
    engine.tasks.update(ex.scope, owner, params.taskId, params.inputResponses);
  else engine.tasks.cancel(ex.scope, owner, params.taskId);
  return {};
}

function contextOf(request: JsonRpcRequest, ex: ModernExchange): RequestCtx {
  return new RequestCtx(
    request,
    {
      era: 'modern',
      protocolVersion: MODERN_PROTOCOL_VERSION,
      credential: ex.credential,
      clientIp: ex.clientIp,
      context: ex.context,
      clientCapabilities: ex.envelope.clientCapabilities,
      logLevel: ex.envelope.logLevel,
    },
    new ModernDelivery(ex),
    ex.cancellation,
  );
}

/** A modern request's messages go on its own response stream; it never sends the client requests. */
class ModernDelivery implements Delivery {
  constructor(private readonly ex: ModernExchange) {}
  async send(message: JsonRpcMessage): Promise<boolean> {
    return this.ex.channel.send(message);
  }
  async request(): Promise<unknown> {
    return Promise.reject(
      new Error('Protocol 2026-07-28 asks the client through input_required results.'),
    );
  }
  close(): void {}
}

function cacheHints(
  surface: Surface,
  ttlMs: number,
): { ttlMs: number; cacheScope: 'public' | 'private' } {
  return { ttlMs, cacheScope: surface.cache?.scope ?? 'public' };
}

/** Each surface's discover result, made and serialised once: it depends on the surface alone. */
const discovered = new WeakMap<Surface, Record<string, unknown>>();

function discoverResult(surface: Surface): Record<string, unknown> {
  let result = discovered.get(surface);
  if (!result) {
    result = frozenJson(
      complete(surface, {
        supportedVersions: ALL_PROTOCOL_VERSIONS,
        capabilities: capabilitiesOf(surface, 'modern'),
        ...(surface.instructions ? { instructions: surface.instructions } : {}),
        ...cacheHints(surface, surface.cache?.listTtlMs ?? 0),
      }),
    );
    discovered.set(surface, result);
  }
  return result;
}

/** A finished result: resultType "complete" and the server's identity in `_meta`. */
function complete(surface: Surface, result: Record<string, unknown>): Record<string, unknown> {
  result.resultType = 'complete';
  return withServerInfo(surface, result);
}

function withServerInfo(
  surface: Surface,
  result: Record<string, unknown>,
): Record<string, unknown> {
  const meta = isRecord(result._meta) ? result._meta : {};
  meta[META.serverInfo] = surface.serverInfo;
  result._meta = meta;
  return result;
}

/** At most this many resources one listen stream may name. */
const MAX_LISTEN_RESOURCES = 100;

/**
 * Checks a subscriptions/listen request and returns the filter the server will honour: the list
 * changes asked for, and the named resources that exist (reading them must be allowed: the
 * surface's guard runs as for a resources/read).
 */
export async function listenFilter(
  engine: McpEngine,
  request: JsonRpcRequest,
  ex: ModernExchange,
): Promise<ListenFilter> {
  const asked = request.params?.notifications;
  if (!isRecord(asked))
    throw new RpcError(
      ErrorCode.InvalidParams,
      'subscriptions/listen needs params.notifications: which notifications to receive.',
    );
  const honoured: ListenFilter = {};
  for (const k of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const)
    if (asked[k] === true) honoured[k] = true;
  const taskIds = asked.taskIds;
  if (taskIds !== undefined) {
    if (!tasksDeclared({ era: 'modern', clientCapabilities: ex.envelope.clientCapabilities }))
      throw missingTasks('Listening for task status');
    if (
      !Array.isArray(taskIds) ||
      taskIds.length > MAX_LISTEN_RESOURCES ||
      !taskIds.every((t) => typeof t === 'string')
    )
      throw new RpcError(
        ErrorCode.InvalidParams,
        `taskIds must be a list of at most ${MAX_LISTEN_RESOURCES} task ids.`,
      );
    const owner = ex.owner ?? '';
    const mine = [...new Set(taskIds as string[])].filter((t) =>
      engine.tasks.has(ex.scope, owner, t),
    );
    if (mine.length) honoured.taskIds = mine;
  }
  const uris = asked.resourceSubscriptions;
  if (uris !== undefined) {
    if (
      !Array.isArray(uris) ||
      uris.length > MAX_LISTEN_RESOURCES ||
      !uris.every((u) => typeof u === 'string')
    ) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `resourceSubscriptions must be a list of at most ${MAX_LISTEN_RESOURCES} resource URIs.`,
      );
    }
    const known = [...new Set(uris as string[])].filter((u) => findResource(ex.surface, u));
    if (known.length) {
      await around(
        ex.surface,
        contextOf({ ...request, method: 'resources/subscribe' }, ex),
        async () => undefined,
      );
      honoured.resourceSubscriptions = known;
    }
  }
  return honoured;
}

/** The response that ends a listen stream the server closes on its own (shutdown). */
export function listenClosed(surface: Surface, id: JsonRpcRequest['id']): JsonRpcResponse {
  return success(
    id,
    withServerInfo(surface, {
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/subscriptionId': id },
    }),
  );
}
