// The one error type services throw. Codes match the MCP/REST error codes of the spec (section 6.3);
// messages are shown to the caller as they are, so each one says what to do next.
import { OUTAGE_RETRY_SECONDS, outageOf } from '../store/outage.ts';

export const DOMAIN_ERROR_CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid_argument',
  'conflict',
  'rate_limited',
  'unavailable',
  'internal',
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/** The JSON-RPC errors an MCP content method answers with, by their names in the MCP engine. */
export type RpcErrorName =
  | 'Unauthorized'
  | 'ResourceNotFound'
  | 'InvalidParams'
  | 'RateLimited'
  | 'Unavailable'
  | 'InternalError';

/**
 * How every face answers each code, the one table they all read: `rest` is the HTTP status of a
 * REST problem, `web` that of a web page (a form shown again with its messages is 400, as browsers
 * expect), `rpc` the JSON-RPC error of an MCP content method (resources, prompts, completion). MCP
 * tool failures carry the code itself.
 */
export const ERROR_ANSWERS = {
  unauthorized: { rest: 401, web: 401, rpc: 'Unauthorized' },
  forbidden: { rest: 403, web: 403, rpc: 'Unauthorized' },
  not_found: { rest: 404, web: 404, rpc: 'ResourceNotFound' },
  invalid_argument: { rest: 422, web: 400, rpc: 'InvalidParams' },
  conflict: { rest: 409, web: 409, rpc: 'InternalError' },
  rate_limited: { rest: 429, web: 429, rpc: 'RateLimited' },
  unavailable: { rest: 503, web: 503, rpc: 'Unavailable' },
  internal: { rest: 500, web: 500, rpc: 'InternalError' },
} as const satisfies Record<DomainErrorCode, { rest: number; web: number; rpc: RpcErrorName }>;

/** The code a JSON-RPC error of that name stands for: the first row answering with it (none for InternalError). */
export function codeOfRpc(name: string | undefined): DomainErrorCode | undefined {
  if (name === undefined || name === 'InternalError') return undefined;
  return DOMAIN_ERROR_CODES.find((code) => ERROR_ANSWERS[code].rpc === name);
}

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DomainError';
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}

/**
 * DomainError('unavailable') that also carries the wait: the database cannot be reached or written
 * now (a restart, a stop, a promotion, a full disk). Every face answers 503 with Retry-After.
 */
export class UnavailableError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number = OUTAGE_RETRY_SECONDS,
    options?: { cause?: unknown },
  ) {
    super('unavailable', message, options);
  }
}

/** `err` as an UnavailableError when it is an outage of the database (or one already), else undefined. */
export function unavailableOf(err: unknown): UnavailableError | undefined {
  if (err instanceof UnavailableError) return err;
  const kind = outageOf(err);
  if (!kind) return undefined;
  return new UnavailableError(
    kind === 'unreachable'
      ? `The database cannot be reached right now (restarting or failing over). Retry in ${OUTAGE_RETRY_SECONDS} seconds (a write retried with the same idempotency key is applied once).`
      : `The database cannot take writes right now (a full disk, a read-only file or maintenance). Retry in ${OUTAGE_RETRY_SECONDS} seconds.`,
    OUTAGE_RETRY_SECONDS,
    { cause: err },
  );
}
