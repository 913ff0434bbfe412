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
