// Errors as application/problem+json (RFC 9457): `type` (this instance's page for the code, see
// ./problem-pages.ts), `title`, `status`, `detail`, plus the
// same `code` an MCP tool failure carries, the offending fields (`errors`) of a schema failure, and
// `retry_after_seconds` when rate limited. Statuses as HTTP intends them (ERROR_ANSWERS, the one table
// of what each code answers on every face).
import { z } from 'zod';
import { DOMAIN_ERROR_CODES, ERROR_ANSWERS, type DomainErrorCode } from '../../domain/errors.ts';
import type { Failure, Issue } from '../../operations/pipeline.ts';

export const PROBLEM_TYPE = 'application/problem+json';

/**
 * Where this instance documents each code: an absolute-path reference, so that it resolves against
 * the request's own URL on every host and form (a community's host, /c/<slug>, the apex).
 */
export const PROBLEM_PAGES = '/api/problems';

export function problemTypeOf(code: DomainErrorCode): string {
  return `${PROBLEM_PAGES}/${code}`;
}

const TITLE: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: DomainErrorCode;
  errors?: Issue[];
  retry_after_seconds?: number;
};

export const problemSchema = z.object({
  type: z
    .string()
    .describe(
      "This instance's page for the code (/api/problems/<code>, relative to the request's URL).",
    ),
  title: z.string(),
  status: z.number().int(),
  detail: z
    .string()
    .describe(
      'What went wrong and what to do about it (the same text an MCP tool failure carries).',
    ),
  code: z.enum(DOMAIN_ERROR_CODES).describe('The same code as MCP tool failures.'),
  errors: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('Schema failures: each offending field.'),
  retry_after_seconds: z.number().int().optional(),
});

export function problem(
  status: number,
  code: DomainErrorCode,
  detail: string,
  extra: Partial<Problem> = {},
): Problem {
  return {
    type: problemTypeOf(code),
    title: TITLE[status] ?? 'Error',
    status,
    detail,
    code,
    ...extra,
  };
}

/** A pipeline failure as a problem; a schema failure is 422 with its issues. */
export function problemOf(failure: Failure): Problem {
  const extra: Partial<Problem> = {};
  if (failure.issues) extra.errors = failure.issues;
  if (failure.retryAfterSeconds !== undefined)
    extra.retry_after_seconds = failure.retryAfterSeconds;
  const detail =
    failure.stage === 'validate' ? `Invalid request: ${failure.message}` : failure.message;
  return problem(ERROR_ANSWERS[failure.code].rest, failure.code, detail, extra);
}

/** The request could not be read at all (not JSON, not an object): 400. */
export function malformed(detail: string): Problem {
  return problem(400, 'invalid_argument', detail);
}
