// The stable error codes a tool failure carries in `structuredContent.code` (SPEC §6.3). Any error
// with one of these codes and a message (the domain's DomainError, or ToolFailure below) becomes an
// `isError: true` result; anything else is reported as `internal` without leaking its message.
export const TOOL_ERROR_CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid_argument',
  'conflict',
  'rate_limited',
  'unavailable',
  'internal',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export class ToolFailure extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isToolFailure(err: unknown): err is { code: ToolErrorCode; message: string } {
  if (!(err instanceof Error)) return false;
  const code: unknown = (err as unknown as { code?: unknown }).code;
  return typeof code === 'string' && (TOOL_ERROR_CODES as readonly string[]).includes(code);
}
