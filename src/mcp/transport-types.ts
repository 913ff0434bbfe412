// Types the HTTP transport's parts share (./http-transport.ts, ./legacy-post.ts): the endpoint a
// request addresses, the answer of the per-client admission every request passes, and the hook
// told of each answered request.
import type { IncomingMessage } from 'node:http';
import type { JsonRpcRequest, JsonRpcResponse } from './jsonrpc.ts';
import type { Surface } from './surface.ts';

/** What the request's host resolved to. */
export type Endpoint = {
  scope: string;
  surface: Surface;
  /** What the application made of this request at its front door, opaque here: handlers get it as ctx.context. */
  context?: unknown;
};

/** Whether a client may go on; when not, how long it should wait and what to tell it. */
export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number; message: string };

/**
 * Told of each JSON-RPC request the transport answered, with its response (undefined when the
 * client cancelled it, or for a listen stream that opened): for the application's access log and
 * metrics. Called synchronously; it must be cheap and must not throw.
 */
export type AnsweredHook = (
  req: IncomingMessage,
  request: JsonRpcRequest,
  response: JsonRpcResponse | undefined,
  /** The request's place in its batch (0: the first, or not a batch); answers come in any order. */
  position?: number,
) => void;
