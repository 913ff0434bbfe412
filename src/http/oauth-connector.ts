// The connector URL `/mcp`: a community's MCP server as an OAuth protected resource, for MCP hosts
// that connect on a person's behalf. The same surface as /api/mcp, but every request must carry an
// access token issued for exactly this URL: none → 401 with a challenge naming the resource
// metadata and the everyday scopes; invalid, expired or revoked → 401 invalid_token; a call that
// needs a scope the token lacks → 403 insufficient_scope naming it (step-up). /api/mcp keeps its
// key behaviour and takes no access tokens. A private community's connector exists only for a valid
// access token of it: without one, the request is answered as at an unknown community's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log.ts';
import type { McpHttpTransport } from '../mcp/http-transport.ts';
import type { ConnectorRequest } from '../domain/identity/connector-request.ts';
import type { RequestScope } from '../operations/pipeline.ts';
import { bearerOf, nodeHeaders } from './front-door.ts';
import { OAuthError } from '../domain/oauth/errors.ts';
import { EVERYDAY_SCOPES } from '../domain/oauth/scopes.ts';
import { resourceMetadataUrl, resourceOf, type OAuthSite } from '../domain/oauth/site.ts';
import type { Services } from '../services.ts';

export type ConnectorDeps = {
  transport: McpHttpTransport;
  services: Services;
  /** The community site the request reached (host form, or path form with `slug`). */
  siteOf: (req: IncomingMessage, slug?: string) => Promise<OAuthSite | undefined>;
  logger: Logger;
};

/** A quoted-string parameter of a WWW-Authenticate challenge (RFC 9110). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, '').replace(/[\r\n]+/g, ' ')}"`;
}

function challenge(site: OAuthSite, params: Record<string, string>): string {
  const all = { ...params, resource_metadata: resourceMetadataUrl(resourceOf(site)) };
  return `Bearer ${Object.entries(all)
    .map(([k, v]) => `${k}=${quoted(v)}`)
    .join(', ')}`;
}

const EXPOSE = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate';

function refuse(
  res: ServerResponse,
  status: number,
  wwwAuthenticate: string,
  body: Record<string, string>,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'www-authenticate': wwwAuthenticate,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSE,
  });
  res.end(text);
}

/** The node:http listener for the connector URL (`slug` in the path form /c/<slug>/mcp). */
export function createConnector(
  deps: ConnectorDeps,
): (req: IncomingMessage, res: ServerResponse, slug?: string) => Promise<void> {
  return async (req, res, slug) => {
    // CORS preflights carry no credentials; the transport answers them.
    if (req.method === 'OPTIONS') return deps.transport.handle(req, res);
    const site = await deps.siteOf(req, slug);
    if (!site) return deps.transport.handle(req, res); // not a community: the transport's own 404
    const hidden = site.community.visibility !== 'public';
    // What an unknown community's connector answers: the transport's, to a request without a key
    // (the connector takes no keys; without a credential the transport finds no community here).
    const asUnknown = () => {
      delete req.headers.authorization;
      delete req.headers['x-api-key'];
      return deps.transport.handle(req, res);
    };
    const token = bearerOf(nodeHeaders(req));
    if (!token && hidden) return asUnknown();
    if (!token) {
      req.resume();
      return refuse(res, 401, challenge(site, { scope: EVERYDAY_SCOPES.join(' ') }), {
        error: 'unauthorized',
        error_description: `Connect with OAuth: ${resourceMetadataUrl(resourceOf(site))} names the authorization server. (Agent keys go to /api/mcp.)`,
      });
    }
    let request: ConnectorRequest;
    try {
      const actor = await deps.services.oauth.tokens.authenticate(site, token);
      request = {
        token,
        actor,
        communityId: site.community.id,
        resource: resourceOf(site),
        missingScopes: new Set(),
      };
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      if (hidden) return asUnknown();
      req.resume();
      return refuse(
        res,
        401,
        challenge(site, { error: 'invalid_token', error_description: err.description }),
        { error: 'invalid_token', error_description: err.description },
      );
    }
    // A call that lacked a scope turns the answer into a step-up challenge. The transport decides
    // the status when it writes the head, after the calls of a plain JSON answer have run (an answer
    // already streaming as events keeps its tool error instead).
    const writeHead = res.writeHead.bind(res) as (
      status: number,
      ...rest: unknown[]
    ) => ServerResponse;
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      if (request.missingScopes.size > 0 && status === 200) {
        const needed = [
          ...new Set([...request.actor.client!.scopes, ...request.missingScopes]),
        ].join(' ');
        const extra = {
          'www-authenticate': challenge(site, {
            error: 'insufficient_scope',
            scope: needed,
            error_description: `This needs ${[...request.missingScopes].join(', ')}: connect again and approve it.`,
          }),
          'access-control-expose-headers': EXPOSE,
        };
        // Headers given to writeHead win over setHeader's: add ours to them.
        const at = rest.findIndex((r) => typeof r === 'object' && r !== null);
        if (at >= 0) rest[at] = Object.assign({}, rest[at], extra);
        else rest.push(extra);
        status = 403;
      }
      return writeHead(status, ...rest);
    }) as typeof res.writeHead;
    // What was verified travels with the request to the calls (the endpoint resolver adds the rest).
    const scope: RequestScope = { connector: request };
    await deps.transport.handle(req, res, scope);
  };
}
