// How REST answers: JSON bodies with the success status (202 when a write was queued for approval),
// problems, the RateLimit / RateLimit-Policy headers of the budgets the request was charged
// (per IP, per key), Retry-After when limited, a Link to the next page, and on reads a weak ETag
// over the body (If-None-Match → 304: the client neither downloads nor parses an unchanged page).
import { createHash } from 'node:crypto';
import type { RateState } from '../../domain/identity/rate-limit.ts';
import { PROBLEM_TYPE, type Problem } from './problem.ts';

export type Budgets = { ip?: RateState; key?: RateState };
export type Policy = { perIpPerMinute: number; perKeyPerMinute: number };

const JSON_TYPE = 'application/json; charset=utf-8';

/** RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers), one item per budget. */
export function rateLimitHeaders(policy: Policy, budgets: Budgets): Record<string, string> {
  const items = (['ip', 'key'] as const).filter((k) => budgets[k]);
  const headers: Record<string, string> = {
    'ratelimit-policy': `"ip";q=${policy.perIpPerMinute};w=60, "key";q=${policy.perKeyPerMinute};w=60`,
  };
  if (items.length)
    headers.ratelimit = items
      .map((k) => `"${k}";r=${budgets[k]!.remaining};t=${budgets[k]!.resetSeconds}`)
      .join(', ');
  return headers;
}

export function problemResponse(p: Problem, headers: Record<string, string> = {}): Response {
  const extra: Record<string, string> = { 'cache-control': 'no-store' };
  if (p.retry_after_seconds !== undefined) extra['retry-after'] = String(p.retry_after_seconds);
  if (p.status === 401) extra['www-authenticate'] = 'Bearer realm="hamlet"';
  return new Response(JSON.stringify(p), {
    status: p.status,
    headers: { 'content-type': PROBLEM_TYPE, ...headers, ...extra },
  });
}

/** `<?query with cursor=next>; rel="next"`: a query-only reference keeps the request's own path (host or /c/<slug> form). */
export function nextLink(requestUrl: string, nextCursor: unknown): string | undefined {
  if (typeof nextCursor !== 'string' || !nextCursor) return undefined;
  const query = new URL(requestUrl).searchParams;
  query.set('cursor', nextCursor);
  return `<?${query.toString()}>; rel="next"`;
}

export function weakEtag(body: string): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

export function jsonResponse(input: {
  status: number;
  value: unknown;
  read: boolean;
  requestUrl: string;
  ifNoneMatch?: string;
  headers: Record<string, string>;
}): Response {
  const body = JSON.stringify(input.value);
  const headers: Record<string, string> = {
    'content-type': JSON_TYPE,
    vary: 'Authorization, X-API-Key, Cookie',
    ...input.headers,
  };
  const link = nextLink(input.requestUrl, (input.value as { next_cursor?: unknown }).next_cursor);
  if (link) headers.link = link;
  if (!input.read)
    return new Response(body, {
      status: input.status,
      headers: { ...headers, 'cache-control': 'no-store' },
    });
  const etag = weakEtag(body);
  Object.assign(headers, { etag, 'cache-control': 'private, no-cache' });
  if (matches(input.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: input.status, headers });
}
