// Where a community's authorization server and protected resource are: the issuer is the community's
// base URL as the request reached it (its host, or the path form /c/<slug> on the apex), the
// resource (the connector URL, the tokens' audience) is <issuer>/mcp, and the endpoints hang off it.
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import { normalizeHost, resolveCommunityHost } from '../tenancy.ts';
import { communityOrigin } from '../urls.ts';

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

type UrlConfig = Pick<Config, 'publicScheme' | 'baseDomain' | 'port'>;

/**
 * A community's site as a request reached it: its public origin (as every URL Hamlet builds), the
 * path form /c/<slug> on the apex, or a custom domain as the request named it.
 */
export function siteOf(
  config: UrlConfig,
  community: Community,
  reached: { pathForm: boolean; host?: string },
): OAuthSite {
  if (reached.pathForm)
    return { community, issuer: `${communityOrigin(config, null)}/c/${community.slug}` };
  const name = normalizeHost(reached.host);
  const ours = !name || name === config.baseDomain || name.endsWith(`.${config.baseDomain}`);
  return {
    community,
    issuer: ours
      ? communityOrigin(config, community.slug)
      : `${config.publicScheme}://${reached.host!.trim().toLowerCase()}`,
  };
}

/** The site a request's host (and, in the path form, its slug) names; undefined for anything else. */
export async function siteFor(
  store: Store,
  config: UrlConfig,
  host: string | undefined,
  pathSlug?: string,
  pathForm = false,
): Promise<OAuthSite | undefined> {
  if (!normalizeHost(host)) return undefined;
  const resolved = await resolveCommunityHost(store, host, config.baseDomain);
  if (pathSlug !== undefined) {
    if (resolved.kind === 'unknown') return undefined;
    const community = await store.communities.getBySlug(pathSlug.toLowerCase());
    return community ? siteOf(config, community, { pathForm: true }) : undefined;
  }
  return resolved.kind === 'community'
    ? siteOf(config, resolved.community, { pathForm, host })
    : undefined;
}

/** Where the protected resource metadata of `resource` is (RFC 9728: the well-known path inserted). */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
}
