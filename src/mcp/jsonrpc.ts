// JSON-RPC 2.0 framing: message shapes, classification of incoming values, and the error codes and
// texts a client can rely on.

export type JsonRpcId = string | number;

export type JsonRpcRequest = {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
};
export type JsonRpcNotification = {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
};
export type JsonRpcErrorObject = { code: number; message: string; data?: unknown };
export type JsonRpcSuccess = { jsonrpc: '2.0'; id: JsonRpcId; result: unknown };
export type JsonRpcFailure = { jsonrpc: '2.0'; id: JsonRpcId | null; error: JsonRpcErrorObject };
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  // Implementation-defined server errors (-32000 to -32099).
  SessionNotFound: -32001,
  ResourceNotFound: -32002,
  Unauthorized: -32003,
  RateLimited: -32005,
  /** The server cannot answer now (its database is restarting, say): retry after data.retryAfterMs. */
  Unavailable: -32006,
  // Defined by MCP 2026-07-28 (its reserved range -32020 to -32099).
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  RequestCancelled: -32800,
} as const;

/** The texts every client can rely on. */
export const ErrorText = {
  invalidJson: 'Invalid JSON.',
  notJsonRpc: 'Not a valid JSON-RPC 2.0 message.',
  missingMethod: 'Missing method.',
  emptyBatch: 'Empty batch.',
  unresolved: 'This request did not resolve to an MCP endpoint.',
  unknownMethod: (method: string) => `Unknown method: ${method}`,
  unknownTool: (tool: string) => `Unknown tool: ${tool}`,
  expectedNameArguments: 'Expected { name, arguments }.',
} as const;

/** The JSON-RPC error of a server that cannot answer now, to retry after `retryAfterSeconds`. */
export function unavailableError(retryAfterSeconds: number): JsonRpcErrorObject {
  return {
    code: ErrorCode.Unavailable,
    message: `The server cannot answer right now. Retry in ${retryAfterSeconds} seconds.`,
    data: { retryAfterMs: retryAfterSeconds * 1000 },
  };
}

/** Thrown by method handlers to answer with a JSON-RPC error instead of a result. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
  toObject(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; id: JsonRpcId | null; error: JsonRpcErrorObject };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is JsonRpcId =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Classifies one element of a POST body (a single message or one member of a batch). */
export function classify(value: unknown): Classified {
  if (!isObject(value) || value.jsonrpc !== '2.0') {
    const id = isObject(value) && isId(value.id) ? value.id : null;
    return {
      kind: 'invalid',
      id,
      error: { code: ErrorCode.InvalidRequest, message: ErrorText.notJsonRpc },
    };
  }
  const hasId = 'id' in value && value.id !== undefined;
  if (hasId && !isId(value.id) && value.id !== null) {
    return {
      kind: 'invalid',
      id: null,
      error: { code: ErrorCode.InvalidRequest, message: ErrorText.notJsonRpc },
    };
  }
  if (value.params !== undefined && !isObject(value.params)) {
    const id = isId(value.id) ? value.id : null;
    return {
      kind: 'invalid',
      id,
      error: { code: ErrorCode.InvalidRequest, message: ErrorText.notJsonRpc },
    };
  }
  if (typeof value.method === 'string' && value.method.length > 0) {
    if (hasId && isId(value.id)) return { kind: 'request', message: value as JsonRpcRequest };
    if (!hasId) return { kind: 'notification', message: value as JsonRpcNotification };
    return {
      kind: 'invalid',
      id: null,
      error: { code: ErrorCode.InvalidRequest, message: ErrorText.notJsonRpc },
    };
  }
  if (
    hasId &&
    ('result' in value || (isObject(value.error) && typeof value.error.code === 'number'))
  ) {
    return { kind: 'response', message: value as JsonRpcResponse };
  }
  const id = isId(value.id) ? value.id : null;
  const message =
    !('method' in value) || value.method === '' ? ErrorText.missingMethod : ErrorText.notJsonRpc;
  return { kind: 'invalid', id, error: { code: ErrorCode.InvalidRequest, message } };
}

export const success = (id: JsonRpcId, result: unknown): JsonRpcSuccess => ({
  jsonrpc: '2.0',
  id,
  result,
});
export const failure = (id: JsonRpcId | null, error: JsonRpcErrorObject): JsonRpcFailure => ({
  jsonrpc: '2.0',
  id,
  error,
});
