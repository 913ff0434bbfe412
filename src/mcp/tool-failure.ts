// The stable error codes a tool failure carries in `structuredContent.code` (SPEC §6.3). Any error
// with one of these codes and a message (the domain's DomainError, or ToolFailure below) becomes an
// `isError: true` result; anything else is reported as `internal` without leaking its message.
import { DOMAIN_ERROR_CODES, type DomainErrorCode } from '../domain/errors.ts';

export const TOOL_ERROR_CODES = DOMAIN_ERROR_CODES;
export type ToolErrorCode = DomainErrorCode;

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
