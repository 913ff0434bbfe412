// A tool handler that cannot do what was asked throws ToolError: the call then answers a result
// with `isError: true` whose `structuredContent` is `{ error: message, ...details }` (a failure the
// caller can read and act on), not a JSON-RPC error. Any other exception becomes a generic failure
// whose message does not leak.
export class ToolError extends Error {
  constructor(
    message: string,
    /** Extra machine-readable fields of the failure, e.g. `{ code: "not_found" }`. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** The shape of a failed call's structuredContent when the server declares no narrower one. */
export const GENERIC_FAILURE_SCHEMA = {
  type: 'object',
  description: 'Returned with isError: true.',
  properties: {
    error: { type: 'string', description: 'What went wrong and what to do about it.' },
  },
  required: ['error'],
} as const;

/**
 * A failed call still returns structuredContent, and MCP clients (the official SDK among them)
 * validate structuredContent against outputSchema even when isError is true. So the declared
 * schema is "the result, or a failure".
 */
export function withFailureShape(
  success: Record<string, unknown>,
  failure: Record<string, unknown> = GENERIC_FAILURE_SCHEMA,
): Record<string, unknown> {
  const { $schema, ...rest } = success;
  return {
    ...($schema ? { $schema } : {}),
    type: 'object',
    anyOf: [rest, failure],
  };
}
