// What the REST API answers where there is no community it may show: an unknown host or
// /c/<slug>, or a private community to a request without a credential that reads it. The same
// problem+json 404 for both (nothing tells a private community from an unknown one), readable from
// any origin like every other REST answer; and failures outside the REST routes' own handling
// (an unexpected error, or an outage: 503 with Retry-After) as problem+json too, never the web's
// HTML pages.
import { problem } from './problem.ts';
import { problemResponse } from './respond.ts';
import { API_PREFIX } from './routes.ts';

/** Whether a request path is the REST API's (`/api/v1` and below). */
export function isRestPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

const ANY_ORIGIN = { 'access-control-allow-origin': '*' };

/** 404 for a host or /c/<slug> that names no community this request may see. */
export function unknownCommunityResponse(): Response {
  return problemResponse(
    problem(
      404,
      'not_found',
      'This address does not belong to any Hamlet community this request may see. Check the host or the /c/<slug> path; a private community answers so until the request carries a key of it (Authorization: Bearer …) or a member’s session.',
    ),
    ANY_ORIGIN,
  );
}

/** 400 for input no engine can store (the NUL character) that reached the store. */
export function unstorableInputResponse(): Response {
  return problemResponse(
    problem(400, 'invalid_argument', 'The request carried characters that are not allowed (NUL).'),
    ANY_ORIGIN,
  );
}

/** 503 with Retry-After for a database that cannot be reached or written now (an outage). */
export function unavailableResponse(detail: string, retryAfterSeconds: number): Response {
  return problemResponse(
    problem(503, 'unavailable', detail, { retry_after_seconds: retryAfterSeconds }),
    ANY_ORIGIN,
  );
}

/** 500 for an unexpected failure (logged on our side). */
export function internalErrorResponse(): Response {
  return problemResponse(
    problem(500, 'internal', 'Something went wrong on our side. Try again in a moment.'),
    ANY_ORIGIN,
  );
}
