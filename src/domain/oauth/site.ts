// Where a community's authorization server and protected resource are: the issuer is the community's
// base URL as the request reached it (its host, or the path form /c/<slug> on the apex), the
// resource (the connector URL, the tokens' audience) is <issuer>/mcp, and the endpoints hang off it.
import type { Community } from '../../store/types.ts';

export type OAuthSite = { community: Community; issuer: string };

export const OAUTH_PATHS = {
  connector: '/mcp',
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;

export function resourceOf(site: OAuthSite): string {
  return `${site.issuer}${OAUTH_PATHS.connector}`;
}

export function endpointOf(site: OAuthSite, name: keyof typeof OAUTH_PATHS): string {
  return `${site.issuer}${OAUTH_PATHS[name]}`;
}

/** A resource indicator as compared: an absolute URI without fragment, scheme and host lower-cased. */
export function canonicalResource(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.hash || value.includes('#')) return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}
