// Which community a request is for, from its Host header. `<slug>.<base>` is a community, the apex
// `<base>` (and `www.<base>`, and any IP literal: `127.0.0.1`, `[::1]`, the machine's address) is
// the network, whose path form `/c/<slug>/…` reaches every community; anything else is unknown unless a community claimed
// it as its custom domain. An unknown host never reaches a community's data, and a private
// community is unknown to every request without a credential that may read it (no status, page or
// sentence tells an outsider that a private slug exists).
import { isIP } from 'node:net';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { canRead } from './authorization.ts';
import { COMMUNITY_SLUG } from './slug.ts';

export type HostResolution =
  { kind: 'network' } | { kind: 'community'; slug: string } | { kind: 'unknown' };

/** Lower-cased host without port or trailing dot; null when the header is empty or malformed. */
export function normalizeHost(hostHeader: string | null | undefined): string | null {
  if (!hostHeader) return null;
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    // IPv6 literal "[::1]:8787": the apex, never a community.
    const end = host.indexOf(']');
    return end > 0 ? host.slice(0, end + 1) : null;
  }
  const colon = host.indexOf(':');
  if (colon >= 0) {
    if (!/^\d{1,5}$/.test(host.slice(colon + 1))) return null;
    host = host.slice(0, colon);
  }
  host = host.replace(/\.$/, '');
  return /^[a-z0-9.-]+$/.test(host) && !host.includes('..') ? host : null;
}

/** `[…]` (IPv6, as normalizeHost keeps it) or a dotted-quad IPv4 address. */
function isIpLiteral(host: string): boolean {
  if (host.startsWith('[')) return isIP(host.slice(1, -1)) === 6;
  return isIP(host) === 4;
}

/** Pure: classifies a Host header against the base domain (case-insensitive, port ignored). */
export function resolveHost(
  hostHeader: string | null | undefined,
  baseDomain: string,
): HostResolution {
  const host = normalizeHost(hostHeader);
  const base = baseDomain.toLowerCase().replace(/\.$/, '');
  if (!host) return { kind: 'unknown' };
  if (host === base || host === `www.${base}` || isIpLiteral(host)) return { kind: 'network' };
  if (!host.endsWith(`.${base}`)) return { kind: 'unknown' };
  const label = host.slice(0, -(base.length + 1));
  if (label.includes('.') || !COMMUNITY_SLUG.test(label)) return { kind: 'unknown' };
  return { kind: 'community', slug: label };
}

export type CommunityResolution =
  { kind: 'network' } | { kind: 'community'; community: Community } | { kind: 'unknown' };

/**
 * resolveHost plus the store: a community subdomain must exist, and a host outside the base domain
 * is looked up as a custom domain. Visibility checks (private communities) are the caller's next step.
 */
export async function resolveCommunityHost(
  store: Store,
  hostHeader: string | null | undefined,
  baseDomain: string,
): Promise<CommunityResolution> {
  const resolved = resolveHost(hostHeader, baseDomain);
  if (resolved.kind === 'network') return resolved;
  if (resolved.kind === 'community') {
    const community = await store.communities.getBySlug(resolved.slug);
    return community ? { kind: 'community', community } : { kind: 'unknown' };
  }
  const host = normalizeHost(hostHeader);
  const base = baseDomain.toLowerCase();
  if (!host || host === base || host.endsWith(`.${base}`) || host.startsWith('['))
    return { kind: 'unknown' };
  const community = await store.communities.getByDomain(host);
  return community ? { kind: 'community', community } : { kind: 'unknown' };
}

/**
 * The resolution as this request may see it: a private community stays a community only for an
 * actor that can read it (`actorOf` authenticates the request's credential for that community, and
 * answers anonymous when there is none or it is not valid); for everyone else it is unknown.
 */
export async function visibleResolution(
  resolution: CommunityResolution,
  actorOf: (community: Community) => Promise<Actor>,
): Promise<CommunityResolution> {
  if (resolution.kind !== 'community' || resolution.community.visibility === 'public')
    return resolution;
  return canRead(await actorOf(resolution.community), resolution.community)
    ? resolution
    : { kind: 'unknown' };
}
