// Where a community's authorization server and protected resource are: the issuer is the community's
// base URL as the request reached it (its host, or the path form /c/<slug> on the apex), the
// resource (the connector URL, the tokens' audience) is <issuer>/mcp, and the endpoints hang off it.
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import { normalizeHost, resolveCommunityHost } from '../tenancy.ts';

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

/**
 * The site a request reached: on a community's host (`host` as the request named it, port kept),
 * or in the path form `/c/<slug>` on any host of ours. Undefined for anything else.
 */
export async function siteFor(store: Store, config: Pick<Config, 'publicScheme' | 'baseDomain'>, host: string | undefined, pathSlug?: string): Promise<OAuthSite | undefined> {
  if (!host || !normalizeHost(host)) return undefined;
  const origin = `${config.publicScheme}://${host.trim().toLowerCase().replace(/\.(?=:|$)/, '')}`;
  const resolved = await resolveCommunityHost(store, host, config.baseDomain);
  if (pathSlug !== undefined) {
    if (resolved.kind === 'unknown') return undefined;
    const community = await store.communities.getBySlug(pathSlug.toLowerCase());
    return community ? { community, issuer: `${origin}/c/${community.slug}` } : undefined;
  }
  return resolved.kind === 'community' ? { community: resolved.community, issuer: origin } : undefined;
}

/** Where the protected resource metadata of `resource` is (RFC 9728: the well-known path inserted). */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
}
