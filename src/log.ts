// The process logger: JSON lines (pino). Anything that could carry a secret is redacted by path, so
// a careless `log.info({ req })` still never writes a key, password or session token. Also the
// request being served, for a log line written far from it (the last-resort handler of an error
// nobody observed names the request it came from).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'password',
  '*.password',
  'key',
  '*.key',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'credential',
  '*.credential',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'hamlet' } },
    destination as DestinationStream | undefined,
  );
}

/** What a log line says of a request: method, path (never the query: it may carry a code or a token), request id. */
export type RequestSummary = { method: string; path: string; requestId?: string };

const requestScope = new AsyncLocalStorage<RequestSummary>();

/** Runs `serve` (and everything it starts) as serving `req`. */
export function inRequestScope<T>(req: IncomingMessage, serve: () => T): T {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const id = req.headers['x-request-id'];
  return requestScope.run(
    {
      method: req.method ?? 'GET',
      path: (q === -1 ? url : url.slice(0, q)).slice(0, 500),
      ...(typeof id === 'string' ? { requestId: id.slice(0, 100) } : {}),
    },
    serve,
  );
}

/** The request whose work is running now, if any. */
export function currentRequest(): RequestSummary | undefined {
  return requestScope.getStore();
}
