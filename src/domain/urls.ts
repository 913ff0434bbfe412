// Public URLs of communities, topics and posts, built in one place from Config. A community has two
// address forms: its host (`https://acme.<base>/…`, the production form and the canonical URL) and
// the path form on any host (`https://<base>/c/acme/…`, for clients that cannot resolve
// `*.localhost`). Everything built here is canonical, so what is stored or sent later (webhook
// payloads, the idempotency ledger) is the same whatever address the write came through; a response
// to a path-form request is turned into that form as it is presented (toPathForm).
// Every origin comes from publicOrigin: HAMLET_PUBLIC_ORIGIN when set (production, behind any
// proxy: no instance's own port leaks), else this machine's address on the port actually served. A
// local run lists and prints the path form (listedOrigin), the one every MCP client can reach.
import type { Config } from '../config/config.ts';

/** What URLs are built from (the whole Config will do). */
export type UrlConfig = Pick<Config, 'publicScheme' | 'baseDomain' | 'port' | 'publicOrigin'>;

/** A community as its URLs need it: its slug, and the custom domain it may have claimed. */
export type CommunityAddress = string | { slug: string; customDomain?: string | null };

/** The prefix of the path form: `/c/<slug>/…`. */
export const PATH_FORM_PREFIX = '/c/';

/**
 * The header in which the HTTP front keeps the host a path-form request named (it rewrites Host).
 * It removes the header from every other request, so its presence says the request is in the path form.
 */
export const PATH_FORM_HOST_HEADER = 'x-hamlet-path-form-host';

/** Whether a request (as the HTTP front passed it on) addressed its community by path. */
export function addressedByPath(header: (name: string) => string | undefined): boolean {
  return header(PATH_FORM_HOST_HEADER) !== undefined;
}

function origin(config: UrlConfig, host: string): string {
  if (config.publicOrigin) {
    // `<scheme>://<base>[:port]`: the same with the community's host in place of the base.
    const scheme = config.publicOrigin.slice(0, config.publicOrigin.indexOf('://'));
    const port = config.publicOrigin.slice(`${scheme}://${config.baseDomain}`.length);
    return `${scheme}://${host}${port}`;
  }
  // Locally the port served is part of every URL, 80 aside; with https we assume TLS ends at a
  // proxy on 443, so the port is not.
  const port =
    config.publicScheme === 'http' && config.port !== 80 && config.port !== 0
      ? `:${config.port}`
      : '';
  return `${config.publicScheme}://${host}${port}`;
}

/**
 * The origin of the apex, as people and clients reach it: HAMLET_PUBLIC_ORIGIN when it is set, else
 * `<scheme>://<base>:<port served>`. Anything that hands out an address (links, printed URLs,
 * server.json, e-mail) starts from here or from the functions below, never from Config directly.
 */
export function publicOrigin(config: UrlConfig): string {
  return origin(config, config.baseDomain);
}

/** Whether the operator set the public origin (production); without it, a local run. */
export function hasPublicOrigin(config: UrlConfig): boolean {
  return config.publicOrigin !== undefined;
}

/**
 * The canonical origin of a community: `<scheme>://<slug>.<base>[:port]`, or with a public origin
 * the custom domain it claimed (`<scheme>://<domain>`, served there by the operator's proxy); the
 * apex (null) is `<scheme>://<base>[:port]`.
 */
export function communityOrigin(config: UrlConfig, community: CommunityAddress | null): string {
  if (!community) return origin(config, config.baseDomain);
  const { slug, customDomain } = typeof community === 'string' ? { slug: community } : community;
  if (customDomain && config.publicOrigin) return `${config.publicScheme}://${customDomain}`;
  return origin(config, `${slug}.${config.baseDomain}`);
}

/** A path on the community's own site, as a link inside its pages: `/t/x`, or `/c/acme/t/x` in the path form. */
export function communityPath(slug: string, path: string, pathForm: boolean): string {
  return pathForm ? `${PATH_FORM_PREFIX}${slug}${path}` : path;
}

/** `…/t/<topic-slug>`, or `…/t/<topic-slug>#post-<post-id>` for one post. */
export function topicUrl(
  config: UrlConfig,
  community: CommunityAddress,
  topicSlug: string,
  postId?: string,
): string {
  const url = `${communityOrigin(config, community)}/t/${topicSlug}`;
  return postId ? `${url}#post-${postId}` : url;
}

/** The community's MCP endpoint. */
export function communityMcpUrl(config: UrlConfig, communitySlug: string): string {
  return `${communityOrigin(config, communitySlug)}/api/mcp`;
}

/** The community's origin in the path form, `<scheme>://<base>[:port]/c/<slug>`. */
export function communityPathOrigin(config: UrlConfig, communitySlug: string): string {
  return `${origin(config, config.baseDomain)}${PATH_FORM_PREFIX}${communitySlug}`;
}

/**
 * The origin a community is listed and printed under (the apex's directory, the CLI, server.json):
 * with a public origin its host form; locally the path form, which every MCP client resolves
 * (`*.localhost` resolves in curl and browsers only). `slug` may be a placeholder (`{community}`).
 */
export function listedOrigin(config: UrlConfig, slug: string | null): string {
  if (!slug) return publicOrigin(config);
  return hasPublicOrigin(config)
    ? communityOrigin(config, slug)
    : communityPathOrigin(config, slug);
}

/** A community's MCP endpoint as it is listed and printed (see listedOrigin). */
export function listedMcpUrl(config: UrlConfig, slug: string | null): string {
  return `${listedOrigin(config, slug)}/api/mcp`;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `value` (a presented result) with every string that is a canonical community URL turned into the
 * path form: `https://acme.<base>/t/x` becomes `https://<base>/c/acme/t/x`. Only whole URL values
 * change; text that merely contains a URL (a post's body) is left as written.
 */
export function toPathForm<T>(config: UrlConfig, value: T): T {
  const apex = publicOrigin(config);
  if (pathForm?.apex !== apex) pathForm = { apex, walk: pathFormWalker(apex) };
  return pathForm.walk(value) as T;
}

const WHITESPACE = /\s/;

/** The walker of the last origin asked for (one per process in practice: its public origin). */
let pathForm: { apex: string; walk: (v: unknown) => unknown } | undefined;

/** Copies a value with its canonical community URLs in the path form of `apex`. */
function pathFormWalker(apex: string): (v: unknown) => unknown {
  const [scheme, rest] = apex.split('://') as [string, string];
  const start = `${scheme}://`;
  const canonical = new RegExp(
    `^${escaped(scheme)}://([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)\\.${escaped(rest)}(?=[/?#]|$)`,
  );
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      // Most strings (bodies, titles, ids) are not URLs: one prefix test settles them.
      if (!v.startsWith(start)) return v;
      const m = canonical.exec(v);
      if (!m) return v;
      const tail = v.slice(m[0].length);
      // A URL holds no whitespace: text that only starts with one (a post's body) stays as written.
      return WHITESPACE.test(tail) ? v : `${apex}${PATH_FORM_PREFIX}${m[1]}${tail}`;
    }
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) {
      const out = new Array<unknown>(v.length);
      for (let i = 0; i < v.length; i++) out[i] = walk(v[i]);
      return out;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = walk((v as Record<string, unknown>)[k]);
    return out;
  };
  return walk;
}
