// Small HTTP helpers the transport's two eras share: reading a bounded body, writing a JSON reply
// with the CORS and protocol-version headers, and the request headers they read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_RESPONSE_HEADERS } from './cors.ts';
import {
  ErrorCode,
  failure,
  unavailableError,
  type JsonRpcErrorObject,
  type JsonRpcId,
} from './jsonrpc.ts';
import { PREFERRED_PROTOCOL_VERSION } from './versions.ts';
import { serialize } from './wire.ts';

export type Reply = { status: number; headers?: Record<string, string>; body?: unknown };

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The key from `Authorization: Bearer …` or `X-API-Key`. */
export function credentialOf(req: IncomingMessage): string | undefined {
  const auth = header(req, 'authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  return header(req, 'x-api-key')?.trim() || undefined;
}

export function rpcError(
  status: number,
  error: JsonRpcErrorObject,
  id: JsonRpcId | null = null,
): Reply {
  return { status, body: failure(id, error) };
}

/** 429 with Retry-After, for a client over its budget (requests or open streams). */
export function tooMany(message: string, retryAfterSeconds: number): Reply {
  return {
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: failure(null, { code: ErrorCode.RateLimited, message, data: { retryAfterSeconds } }),
  };
}

/** 503 with Retry-After, for a request the server could not answer now (its storage is down). */
export function unavailable(retryAfterSeconds: number): Reply {
  return {
    status: 503,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: failure(null, unavailableError(retryAfterSeconds)),
  };
}

/**
 * A single answer that is "unavailable" goes out as 503 with Retry-After (proxies and clients retry
 * on the status alone); a batch, or an answer of another kind, keeps its status.
 */
function asOutage(reply: Reply): Reply {
  const body = reply.body as { error?: { code?: unknown; data?: { retryAfterMs?: unknown } } };
  if (reply.status !== 200 || body?.error?.code !== ErrorCode.Unavailable) return reply;
  const ms = body.error.data?.retryAfterMs;
  const seconds = typeof ms === 'number' ? Math.max(1, Math.ceil(ms / 1000)) : 1;
  return {
    ...reply,
    status: 503,
    headers: { ...reply.headers, 'retry-after': String(seconds) },
  };
}

export function send(res: ServerResponse, reply: Reply): void {
  reply = asOutage(reply);
  const headers: Record<string, string | number> = Object.assign({}, CORS_RESPONSE_HEADERS);
  headers['mcp-protocol-version'] = PREFERRED_PROTOCOL_VERSION;
  if (reply.headers) Object.assign(headers, reply.headers);
  if (reply.body === undefined) {
    if (reply.status !== 204) headers['content-length'] = 0;
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const body = serialize(reply.body);
  headers['content-type'] = 'application/json';
  headers['content-length'] = Buffer.byteLength(body);
  res.writeHead(reply.status, headers);
  res.end(body);
}

/** Reads the body up to `max` bytes; beyond that the rest is discarded and 'too-large' returned. */
export async function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
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
    req.on('end', () =>
      resolve(tooLarge ? 'too-large' : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)),
    );
    req.on('error', reject);
  });
}

export function drain(req: IncomingMessage): void {
  req.resume();
}
