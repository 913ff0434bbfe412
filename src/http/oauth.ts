// The authorization server's and the protected resource's JSON endpoints, on each community's host
// (and in the path form /c/<slug>): RFC 9728 resource metadata, RFC 8414 server metadata, the token
// endpoint, dynamic registration (RFC 7591), revocation (RFC 7009) and the signing keys (JWKS).
// Any origin may call them (no cookies are involved); the consent page is the web's (src/web).
import type { IncomingMessage } from 'node:http';
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { RateLimitedError } from '../domain/identity/rate-limit.ts';
import { OAuthError } from '../domain/oauth/errors.ts';
import { inputErrorOf } from '../domain/validate.ts';
import { endpointOf, resourceOf, type OAuthSite } from '../domain/oauth/site.ts';
import { SCOPES } from '../domain/vocabulary.ts';
import type { PersonActor } from '../domain/actor.ts';
import { canRead } from '../domain/authorization.ts';
import type { Services } from '../services.ts';

export type OAuthHttpDeps = {
  services: Services;
  /** The community site the request reached (host form, or path form with `slug`). */
  siteOf: (
    host: string | undefined,
    forwardedHost: string | undefined,
    slug?: string,
  ) => Promise<OAuthSite | undefined>;
  /** The client's address (X-Forwarded-For only behind a trusted proxy). */
  clientIp: (req: IncomingMessage | undefined) => string;
  /** The person signed in on this host (the web session cookie), if any. */
  personOf: (c: Context) => Promise<PersonActor | undefined>;
};

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, MCP-Protocol-Version',
  'access-control-max-age': '86400',
};

/** The largest token, registration or revocation request read. */
const MAX_BODY_BYTES = 16 * 1024;

/** A registration costs more of the per-address budget than a token request. */
const REGISTER_COST = 10;

/** RFC 9728 metadata of a community's connector URL. */
export function resourceMetadata(site: OAuthSite): Record<string, unknown> {
  return {
    resource: resourceOf(site),
    authorization_servers: [site.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: `Hamlet: ${site.community.name}`,
    resource_documentation: `${site.issuer}/llms`,
  };
}

/** RFC 8414 metadata of a community's authorization server. */
export async function serverMetadata(
  services: Services,
  site: OAuthSite,
): Promise<Record<string, unknown>> {
  const policy = await services.oauth.clients.policy(site.community);
  return {
    issuer: site.issuer,
    authorization_endpoint: endpointOf(site, 'authorize'),
    token_endpoint: endpointOf(site, 'token'),
    ...(policy.mode === 'any' ? { registration_endpoint: endpointOf(site, 'register') } : {}),
    revocation_endpoint: endpointOf(site, 'revoke'),
    jwks_uri: endpointOf(site, 'jwks'),
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${site.issuer}/llms`,
  };
}

export function mountOAuth(app: Hono, deps: OAuthHttpDeps): void {
  const site = (c: Context) =>
    deps.siteOf(c.req.header('host'), c.req.header('x-forwarded-host'), c.req.param('community'));
  const json = (c: Context, body: unknown, status = 200) =>
    c.json(body, status as 200, { ...CORS, 'cache-control': 'no-store', pragma: 'no-cache' });
  const fail = (c: Context, err: OAuthError) =>
    json(c, { error: err.error, error_description: err.description }, err.status);
  const noSite = (c: Context) =>
    json(
      c,
      {
        error: 'invalid_request',
        error_description: 'This address is not a community of this Hamlet.',
      },
      404,
    );
  const ip = (c: Context) =>
    deps.clientIp((c.env as { incoming?: IncomingMessage } | undefined)?.incoming);

  /** Form fields (and a client_id sent with HTTP Basic, for clients that do so with an empty secret). */
  const form = async (c: Context): Promise<Record<string, string>> => {
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/x-www-form-urlencoded\b/i.test(type))
      throw new OAuthError(
        'invalid_request',
        'Send the parameters as application/x-www-form-urlencoded.',
      );
    const body = await c.req.parseBody();
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
    const basic = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    if (basic && !out.client_id) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      out.client_id = decodeURIComponent(
        decoded.slice(0, decoded.indexOf(':') === -1 ? undefined : decoded.indexOf(':')),
      );
    }
    return out;
  };

  /**
   * Runs an endpoint: the per-address budget first (`cost`, for every address the endpoint serves,
   * known or not), then unknown site → 404, OAuthError → its JSON error, rate limit → 429 slow_down.
   */
  const endpoint =
    (handler: (c: Context, s: OAuthSite) => Promise<Response>, cost = 0) =>
    async (c: Context) => {
      try {
        if (cost > 0) await deps.services.rateLimits.checkIp(ip(c), cost);
        const s = await site(c);
        if (!s) return noSite(c);
        return await handler(c, s);
      } catch (err) {
        if (err instanceof OAuthError) return fail(c, err);
        const input = inputErrorOf(err);
        if (input) return fail(c, new OAuthError('invalid_request', input.message));
        if (err instanceof RateLimitedError) {
          c.header('retry-after', String(err.retryAfterSeconds));
          return json(c, { error: 'slow_down', error_description: err.message }, 429);
        }
        throw err;
      }
    };

  // Token, registration and revocation requests are small: a larger body is refused unread.
  const small = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      json(
        c,
        {
          error: 'invalid_request',
          error_description: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
        },
        413,
      ),
  });

  // A private community's pages are hidden from visitors, its sign-in page too: someone connecting
  // an app to it in the path form signs in on the apex (as its members do) and comes back here.
  app.get('/oauth/authorize', async (c, next) => {
    const s = await site(c);
    const path = s ? new URL(s.issuer).pathname : '';
    if (!s || s.community.visibility !== 'private' || !path.startsWith('/c/')) return next();
    const person = await deps.personOf(c);
    if (person && canRead(person, s.community)) return next();
    const back = `${path}/oauth/authorize${new URL(c.req.url).search}`;
    return c.redirect(`${new URL(s.issuer).origin}/signin?next=${encodeURIComponent(back)}`, 303);
  });

  for (const base of ['', '/c/:community']) {
    app.options(`/.well-known/oauth-protected-resource${base}/mcp`, (c) => c.body(null, 204, CORS));
    app.get(
      `/.well-known/oauth-protected-resource${base}/mcp`,
      endpoint(async (c, s) => json(c, resourceMetadata(s))),
    );
    app.options(`/.well-known/oauth-authorization-server${base}`, (c) => c.body(null, 204, CORS));
    app.get(
      `/.well-known/oauth-authorization-server${base}`,
      endpoint(async (c, s) => json(c, await serverMetadata(deps.services, s))),
    );

    for (const path of ['/oauth/token', '/oauth/register', '/oauth/revoke', '/oauth/jwks'])
      app.options(`${base}${path}`, (c) => c.body(null, 204, CORS));
    app.get(
      `${base}/oauth/jwks`,
      endpoint(async (c) => json(c, await deps.services.oauth.keys.jwks())),
    );
    app.post(
      `${base}/oauth/token`,
      small,
      endpoint(
        async (c, s) => json(c, await deps.services.oauth.tokens.token(s, await form(c))),
        1,
      ),
    );
    app.post(
      `${base}/oauth/revoke`,
      small,
      endpoint(async (c, s) => {
        await deps.services.oauth.tokens.revoke(s, await form(c));
        return json(c, {});
      }, 1),
    );
    app.post(
      `${base}/oauth/register`,
      small,
      endpoint(async (c, s) => {
        let body: unknown;
        try {
          body = await c.req.json();
        } catch {
          throw new OAuthError(
            'invalid_client_metadata',
            'Send the client metadata as a JSON object.',
          );
        }
        return json(c, await deps.services.oauth.clients.register(s.community, body), 201);
      }, REGISTER_COST),
    );
  }
}
