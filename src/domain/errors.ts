// The one error type services throw. Codes match the MCP/REST error codes of the spec (section 6.3);
// messages are shown to the caller as they are, so each one says what to do next.

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
  'Unauthorized' | 'ResourceNotFound' | 'InvalidParams' | 'RateLimited' | 'InternalError';

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
  unavailable: { rest: 503, web: 503, rpc: 'InternalError' },
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
