// The site a request addressed, as absolute URLs and mails name it: its base URL in the request's
// own form (a community's host, `<scheme>://acme.<base>[:port]`, or the path form on the apex,
// `<scheme>://<base>[:port]/c/acme`; the apex itself) with the port, and its name. Built from the
// configured public origins, never from the request's Host header, so nothing a client sends
// decides where a feed, a sitemap or a mailed link points.

/** What these need of the request's context (structural: context.ts calls them). */
type Addressed = {
  where:
    | { kind: 'community'; base: string; community: { slug: string; name: string } }
    | { kind: 'network'; base: string };
};
type Origins = { canonicalOrigin: (slug: string | null) => string };

/** `<origin>[/c/<slug>]`: where the request's site starts, in the request's form. */
export function siteBase(deps: Origins, web: Addressed): string {
  const where = web.where;
  if (where.kind !== 'community') return deps.canonicalOrigin(null);
  return where.base
    ? `${deps.canonicalOrigin(null)}${where.base}`
    : deps.canonicalOrigin(where.community.slug);
}

/** The absolute URL of `path` on the request's site, in the request's form. */
export function absolute(deps: Origins, web: Addressed, path: string): string {
  return `${siteBase(deps, web)}${path}`;
}

/** The site's name as mails and pages say it: the community's, or the apex's host. */
export function siteName(deps: Origins, web: Addressed): string {
  return web.where.kind === 'community'
    ? web.where.community.name
    : new URL(deps.canonicalOrigin(null)).host;
}
