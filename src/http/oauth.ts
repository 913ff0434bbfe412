// The authorization server's and the protected resource's JSON endpoints, on each community's host
// (and in the path form /c/<slug>): RFC 9728 resource metadata, RFC 8414 server metadata, the token
// endpoint, dynamic registration (RFC 7591), revocation (RFC 7009) and the signing keys (JWKS).
// Any origin may call them (no cookies are needed); the consent page is the web's (src/web).
// A private community exists here only for a request with a credential of it (a member's session,
// one of its keys or access tokens, or, at the token and revocation endpoints, one of its codes or
// refresh tokens): to any other request each URL answers exactly as that of an unknown community.
import type { IncomingMessage } from 'node:http';
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { RateLimitedError } from '../domain/identity/rate-limit.ts';
import { bearerOf, honoHeaders } from './front-door.ts';
import { isAccessToken } from '../domain/identity/connector-request.ts';
import { OAuthError } from '../domain/oauth/errors.ts';
import { inputErrorOf } from '../domain/validate.ts';
import { endpointOf, resourceOf, type OAuthSite } from '../domain/oauth/site.ts';
import { SCOPES } from '../domain/vocabulary.ts';
import type { Actor } from '../domain/actor.ts';
import { canRead } from '../domain/authorization.ts';
import type { Services } from '../services.ts';
import type { Community } from '../store/types.ts';

export type OAuthHttpDeps = {
  services: Services;
  /** The community site the request (its headers) reached: host form, or path form (`slug` on the apex). */
  siteOf: (
    header: (name: string) => string | undefined,
    slug?: string,
  ) => Promise<OAuthSite | undefined>;
  /** The client's address (X-Forwarded-For only behind a trusted proxy). */
  clientIp: (req: IncomingMessage | undefined) => string;
  /**
   * Who the request's own credential (a web session, an agent or user key) makes it on `community`:
   * anonymous without one, or with one that is not valid there.
   */
  actorOf: (c: Context, community: Community) => Promise<Actor>;
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
  const site = (c: Context) => deps.siteOf((name) => c.req.header(name), c.req.param('community'));
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
      const id = decoded.slice(0, decoded.indexOf(':') === -1 ? undefined : decoded.indexOf(':'));
      try {
        out.client_id = decodeURIComponent(id);
      } catch {
        throw new OAuthError(
          'invalid_client',
          'The client_id in the Basic credentials is malformed.',
          401,
        );
      }
    }
    return out;
  };

  /**
   * Whether the request may see the private community of `s`: a credential of it in its headers
   * (a member's session, one of its keys, an access token for it), or, where `inForm`, in its form
   * (a code, refresh token or access token of one of its grants).
   */
  const mayRead = async (c: Context, s: OAuthSite, inForm: boolean): Promise<boolean> => {
    if (canRead(await deps.actorOf(c, s.community), s.community)) return true;
    const bearer = bearerOf(honoHeaders(c));
    if (bearer && isAccessToken(bearer)) {
      const person = await deps.services.oauth.tokens
        .authenticate(s, bearer)
        .catch(() => undefined);
      if (person) return true;
    }
    if (!inForm) return false;
    const fields = await form(c).catch((err: unknown) => {
      if (err instanceof OAuthError) return undefined;
      throw err;
    });
    return fields !== undefined && deps.services.oauth.tokens.carriesCredential(s, fields);
  };

  /**
   * Runs an endpoint: the per-address budget first (`cost`, for every address the endpoint serves,
   * known or not), then an unknown site, or a private one the request may not see → 404 (the same
   * answer), OAuthError → its JSON error, rate limit → 429 slow_down.
   */
  const endpoint =
    (
      handler: (c: Context, s: OAuthSite) => Promise<Response>,
      o: { cost?: number; credentialInForm?: boolean } = {},
    ) =>
    async (c: Context) => {
      try {
        if (o.cost) await deps.services.rateLimits.checkIp(ip(c), o.cost);
        const s = await site(c);
        if (!s) return noSite(c);
        if (s.community.visibility !== 'public' && !(await mayRead(c, s, !!o.credentialInForm)))
          return noSite(c);
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
      endpoint(async (c, s) => json(c, await deps.services.oauth.tokens.token(s, await form(c))), {
        cost: 1,
        credentialInForm: true,
      }),
    );
    app.post(
      `${base}/oauth/revoke`,
      small,
      endpoint(
        async (c, s) => {
          await deps.services.oauth.tokens.revoke(s, await form(c));
          return json(c, {});
        },
        { cost: 1, credentialInForm: true },
      ),
    );
    app.post(
      `${base}/oauth/register`,
      small,
      endpoint(
        async (c, s) => {
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
        },
        { cost: REGISTER_COST },
      ),
    );
  }
}
