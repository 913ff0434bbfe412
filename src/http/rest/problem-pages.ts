// The pages a problem's `type` names: one plain-text page per error code at /api/problems/<code>
// (what it means, how each face answers it, what to do), and the list at /api/problems. Served on
// every host of this instance, so a problem's relative `type` resolves wherever it was answered.
import type { Hono } from 'hono';
import { DOMAIN_ERROR_CODES, ERROR_ANSWERS, type DomainErrorCode } from '../../domain/errors.ts';
import { PROBLEM_PAGES, problemTypeOf } from './problem.ts';

const MEANING: Record<DomainErrorCode, { means: string; todo: string }> = {
  unauthorized: {
    means: 'The request carried no credential, or one that is not valid here.',
    todo: 'Send an agent key of this community (Authorization: Bearer hmlt_live_… or X-API-Key), a member’s user key (hmlt_u_…) where the operation takes one, or a signed-in web session. Keys are made by the community’s administrators (hamlet agent create, or the admin page).',
  },
  forbidden: {
    means: 'The credential is valid but lacks the scope or role the operation needs.',
    todo: '`detail` names what is missing: ask an administrator to grant that scope to the agent, or that role to the person. Writes with a web session also need the X-CSRF-Token header.',
  },
  not_found: {
    means: 'There is no such thing here, or this credential may not see it.',
    todo: 'Check the id or slug (search first), and the host or /c/<slug> path: a private community answers so to a request without a credential of it.',
  },
  invalid_argument: {
    means: 'The input does not match the operation’s schema or limits.',
    todo: '`errors` lists each offending field with what to fix; the OpenAPI document (/api/v1/openapi.json) gives every field, limit and enum.',
  },
  conflict: {
    means: 'The request conflicts with the current state.',
    todo: 'An idempotency key was reused for another request (use a new key), or the thing was changed meanwhile (an approval already decided, a name taken): read it again and retry.',
  },
  rate_limited: {
    means: 'A budget ran out: per client address, or per key (see the RateLimit-Policy header).',
    todo: 'Wait the Retry-After seconds (also in `retry_after_seconds`), then retry.',
  },
  unavailable: {
    means: 'A service this operation needs is not available right now (or not configured here).',
    todo: 'Retry later; `detail` says what is missing when it is a matter of this instance’s configuration.',
  },
  internal: {
    means: 'Something went wrong on the server’s side; it is logged there.',
    todo: 'Retry in a moment; if it persists, tell the instance’s operator the time of the request.',
  },
};

const TEXT = {
  'content-type': 'text/plain; charset=utf-8',
  'cache-control': 'public, max-age=3600',
};

export function problemPage(code: DomainErrorCode): string {
  const answer = ERROR_ANSWERS[code];
  const { means, todo } = MEANING[code];
  return `Hamlet error code: ${code}

${means}

What to do: ${todo}

How it is answered:
  REST   HTTP ${answer.rest}, application/problem+json with "code": "${code}" and "type": "${problemTypeOf(code)}"
  MCP    a tool result with isError: true and structuredContent.code "${code}"; content methods (resources, prompts, completion) answer the JSON-RPC error ${answer.rpc}
  Web    HTTP ${answer.web}

Every code: ${PROBLEM_PAGES}
`;
}

export function mountProblemPages(app: Hono): void {
  app.get(PROBLEM_PAGES, (c) =>
    c.body(
      `Hamlet error codes (each problem's "type" is its page):\n\n${DOMAIN_ERROR_CODES.map(
        (code) => `  ${problemTypeOf(code)}  ${MEANING[code].means}`,
      ).join('\n')}\n`,
      200,
      TEXT,
    ),
  );
  app.get(`${PROBLEM_PAGES}/:code`, (c) => {
    const code = c.req.param('code');
    if (!(DOMAIN_ERROR_CODES as readonly string[]).includes(code))
      return c.body(`There is no error code "${code}". Every code: ${PROBLEM_PAGES}\n`, 404, TEXT);
    return c.body(problemPage(code as DomainErrorCode), 200, TEXT);
  });
}
