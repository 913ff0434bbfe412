// The REST face: every route of the table (./routes.ts) on `/api/v1`, run through the call
// pipeline exactly as MCP tools are (authenticate → rate-limit → validate → authorize → run →
// present → audit), answered as JSON or problem+json. A request is first counted against its IP,
// bounded in size and read as JSON; its credential is the Bearer / X-API-Key key or a web session
// cookie (writes with a session need the X-CSRF-Token header). Also serves the OpenAPI document and
// the reference page. Browsers on any origin may call it with a key (CORS with `*`, never with
// credentials, so a signed-in person's cookie is never sent cross-site).
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { PersonActor } from '../../domain/actor.ts';
import { RateLimitedError } from '../../domain/identity/rate-limit.ts';
import type { CommunityResolution } from '../../domain/tenancy.ts';
import type { Logger } from '../../log.ts';
import type { AnyOperation } from '../../operations/operation.ts';
import type { Caller, Pipeline } from '../../operations/pipeline.ts';
import type { Services } from '../../services.ts';
import { buildInput } from './input.ts';
import { isJson, UPLOAD_ENVELOPE_BYTES, uploadBody } from './upload-body.ts';
import { mountDocs } from './openapi.ts';
import { mountProblemPages } from './problem-pages.ts';
import { malformed, problem, problemOf, type Problem } from './problem.ts';
import {
  jsonResponse,
  problemResponse,
  rateLimitHeaders,
  type Budgets,
  type Policy,
} from './respond.ts';
import { API_PREFIX, honoPath, REST_ROUTES, type RestRoute, type Server } from './routes.ts';
import { addressedByPath, communityPath } from '../../domain/urls.ts';
import { sessionToken } from '../../web/session.ts';
import { withResponseHeaders } from '../../web/response-headers.ts';
import { noteActor } from '../../web/actor-note.ts';
import { credentialOf, honoHeaders } from '../front-door.ts';

export type RestDeps = {
  pipeline: Pipeline;
  services: Services;
  logger: Logger;
  /** What the request's host (or /c/<slug> path) addresses. */
  resolve: (header: (name: string) => string | undefined) => Promise<CommunityResolution>;
  clientIp: (c: Context) => string;
  /** Public origin of a community (null: the apex), for the OpenAPI document's server URL. */
  origin: (slug: string | null) => string;
  /** A community's origin in the path form, for the OpenAPI document read there. */
  pathOrigin?: (slug: string) => string;
  maxBodyBytes: number;
  /** The largest upload: upload routes (and only they) take bodies up to it and an envelope. */
  maxUploadBytes: number;
  rateLimits: Policy;
  /** Public URLs are https: the web's session cookie has its __Host- name. */
  secure: boolean;
};

const UNSAFE = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** The response headers a script on another origin may read. */
const CORS_EXPOSED = [
  'ETag',
  'Link',
  'Location',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'WWW-Authenticate',
];

/** What a browser on another origin may send and read: the preflight (OPTIONS) is hono's. */
const PREFLIGHT = cors({
  origin: '*',
  allowMethods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
  allowHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'Idempotency-Key', 'If-None-Match'],
  exposeHeaders: CORS_EXPOSED,
  maxAge: 600,
});

/** What every other answer says to such a browser (what hono's cors adds for origin "*"). */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': CORS_EXPOSED.join(','),
};

export function mountRest(app: Hono, deps: RestDeps): void {
  app.use(`${API_PREFIX}/*`, (c, next) =>
    c.req.method === 'OPTIONS' ? PREFLIGHT(c, next) : withResponseHeaders(c, CORS_HEADERS, next),
  );
  // One Hono route per method and path; the host decides which server's route it is.
  const byPath = new Map<string, Partial<Record<Server, { route: RestRoute; op: AnyOperation }>>>();
  for (const route of REST_ROUTES) {
    const key = `${route.method} ${route.path}`;
    byPath.set(key, { ...byPath.get(key), [route.server]: { route, op: route.op } });
  }
  const limit = (maxSize: number, what: string) =>
    bodyLimit({
      maxSize,
      onError: async (c) => {
        await discardBody(c.req.raw.body, 16 * maxSize);
        return problemResponse(problem(413, 'invalid_argument', what), { connection: 'close' });
      },
    });
  const tooLarge = limit(
    deps.maxBodyBytes,
    `The request body is larger than ${deps.maxBodyBytes} bytes.`,
  );
  const uploadTooLarge = limit(
    deps.maxUploadBytes + UPLOAD_ENVELOPE_BYTES,
    `The file is larger than the ${deps.maxUploadBytes} bytes a file may be.`,
  );

  for (const [key, servers] of byPath) {
    const [method, path] = key.split(' ') as [RestRoute['method'], string];
    const upload = Object.values(servers).some((s) => s.route.upload);
    app.on(method.toUpperCase(), honoPath(path), upload ? uploadTooLarge : tooLarge, async (c) => {
      const resolved = await deps.resolve((name) => c.req.header(name));
      const target = resolved.kind === 'unknown' ? undefined : servers[resolved.kind];
      if (!target) {
        const where =
          resolved.kind === 'network'
            ? 'community hosts (<slug>.<base> or /c/<slug>)'
            : 'the network (apex) host';
        return problemResponse(
          problem(
            404,
            'not_found',
            `${method.toUpperCase()} ${API_PREFIX}${path} is served on ${where}, not here. See ${API_PREFIX}/openapi.json for this host's routes.`,
          ),
        );
      }
      return handle(
        c,
        deps,
        target.route,
        target.op,
        resolved.kind === 'community' ? resolved.community : null,
      );
    });
  }
  mountDocs(app, deps);
  mountProblemPages(app);
  // Known paths with another method: 405 with Allow; anything else under /api/v1: 404. Both problems.
  app.all(`${API_PREFIX}/*`, (c) => {
    const path = new URL(c.req.url).pathname;
    const allowed = REST_ROUTES.filter((r) =>
      new RegExp(`^${honoPath(r.path).replace(/:\w+/g, '[^/]+')}/?$`).test(path),
    ).map((r) => r.method.toUpperCase());
    if (allowed.length) {
      const allow = [...new Set(allowed)].join(', ');
      return problemResponse(
        problem(405, 'invalid_argument', `${c.req.method} is not served here; use ${allow}.`),
        { allow },
      );
    }
    return problemResponse(
      problem(
        404,
        'not_found',
        `There is no ${path}. See ${API_PREFIX}/openapi.json for the routes.`,
      ),
    );
  });
}

async function handle(
  c: Context,
  deps: RestDeps,
  route: RestRoute,
  op: AnyOperation,
  community: Caller['community'],
): Promise<Response> {
  const budgets: Budgets = {};
  const limitHeaders = () => rateLimitHeaders(deps.rateLimits, budgets);
  const fail = (p: Problem) => problemResponse(p, limitHeaders());
  const ip = deps.clientIp(c);
  try {
    budgets.ip = await deps.services.rateLimits.checkIp(ip);
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    budgets.ip = {
      limit: deps.rateLimits.perIpPerMinute,
      remaining: 0,
      resetSeconds: err.retryAfterSeconds,
    };
    return fail(
      problem(429, 'rate_limited', err.message, { retry_after_seconds: err.retryAfterSeconds }),
    );
  }

  let body: unknown;
  if (route.upload && !isJson(c.req.header('content-type') ?? '')) {
    const read = await uploadBody(c, deps.maxUploadBytes);
    if (!read.ok) return fail(read.problem);
    body = read.body;
  } else if (route.method !== 'get') {
    const text = await c.req.text();
    if (text.trim()) {
      const type = c.req.header('content-type') ?? '';
      if (!isJson(type))
        return fail(
          problem(
            415,
            'invalid_argument',
            'Send the body as JSON with Content-Type: application/json.',
          ),
        );
      try {
        body = JSON.parse(text);
      } catch {
        return fail(malformed('The body is not valid JSON.'));
      }
    }
  }
  const built = buildInput(route, op, {
    params: c.req.param() as Record<string, string>,
    query: new URL(c.req.url).searchParams,
    body,
    idempotencyKey: c.req.header('idempotency-key'),
  });
  if (!built.ok) {
    const detail = built.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    return fail(
      problem(built.status, 'invalid_argument', `Invalid request: ${detail}`, {
        errors: built.issues,
      }),
    );
  }

  const caller: Caller = {
    community,
    credential: credentialOf(honoHeaders(c)),
    userKeys: true,
    // Without a credential, an open read is a visitor's: public communities only, as on the web.
    visitor: route.visitors === true,
    ip,
    asked: 'This endpoint',
    pathForm: addressedByPath((name) => c.req.header(name)),
    onRateLimit: (s) => (budgets.key = s),
    onAuthenticated: (actor) => noteActor(c, actor),
  };
  if (!caller.credential) {
    const session = await sessionPerson(c, deps);
    if (session === 'csrf')
      return fail(
        problem(
          403,
          'forbidden',
          "Writes with a web session need the X-CSRF-Token header carrying your session's CSRF token (the one your pages' forms carry).",
        ),
      );
    caller.person = session;
  }

  const outcome = await deps.pipeline.invoke(op, caller, built.input);
  if (!outcome.ok) {
    if (outcome.code === 'rate_limited')
      budgets.key = {
        limit: deps.rateLimits.perKeyPerMinute,
        remaining: 0,
        resetSeconds: outcome.retryAfterSeconds ?? 60,
      };
    return fail(problemOf(outcome));
  }
  const queued = outcome.value.status === 'pending_approval';
  const status = queued ? 202 : (route.status ?? 200);
  const headers = limitHeaders();
  // A 201 names what it created, in the request's own form (host, or /c/<slug> path).
  const created =
    status === 201
      ? route.created?.(outcome.value, c.req.param() as Record<string, string>)
      : undefined;
  if (created) {
    const prefix =
      community && caller.pathForm ? communityPath(community.slug, API_PREFIX, true) : API_PREFIX;
    headers.location = `${prefix}${created}`;
  }
  return jsonResponse({
    status,
    value: outcome.value,
    read: route.method === 'get',
    requestUrl: c.req.url,
    ifNoneMatch: c.req.header('if-none-match'),
    headers,
  });
}

/** The signed-in person of the session cookie; 'csrf' when an unsafe request lacks its token. */
async function sessionPerson(
  c: Context,
  deps: RestDeps,
): Promise<PersonActor | 'csrf' | undefined> {
  const token = sessionToken(c, deps);
  if (!token) return undefined;
  const person = await deps.services.accounts.resolveWebSession(token);
  if (!person) return undefined;
  if (
    UNSAFE.has(c.req.method) &&
    !deps.services.accounts.verifyCsrf(token, c.req.header('x-csrf-token'))
  )
    return 'csrf';
  return person;
}

/**
 * Reads and drops an oversized body (up to `max` bytes) before the 413 goes out: a client still
 * sending would otherwise see its connection reset instead of the answer.
 */
async function discardBody(body: ReadableStream<Uint8Array> | null, max: number): Promise<void> {
  if (!body || body.locked) return;
  const reader = body.getReader();
  let read = 0;
  try {
    while (read < max) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing to answer.
  }
}
