// Public URLs of communities, topics and posts, built in one place from Config. A community has two
// address forms: its host (`https://acme.<base>/…`, the production form) and the path form on any
// host (`https://<base>/c/acme/…`, for clients that cannot resolve `*.localhost`). Links handed out
// while serving a request use the form that request came in: the HTTP front marks path-form
// requests with inPathForm(), and every URL built during them follows.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '../config/config.ts';

type UrlConfig = Pick<Config, 'publicScheme' | 'baseDomain' | 'port'>;

/** The prefix of the path form: `/c/<slug>/…`. */
export const PATH_FORM_PREFIX = '/c/';

const pathForm = new AsyncLocalStorage<true>();

/** Runs `fn` (and everything it awaits) as serving a request that addressed its community by path. */
export function inPathForm<T>(fn: () => T): T {
  return pathForm.run(true, fn);
}

/** Whether the request being served addressed its community by path. */
export function servingPathForm(): boolean {
  return pathForm.getStore() === true;
}

/** The header in which the HTTP front keeps the host a path-form request named (it rewrites Host). */
export const PATH_FORM_HOST_HEADER = 'x-hamlet-path-form-host';

function origin(config: UrlConfig, host: string): string {
  // With https we assume TLS ends at a proxy on 443, so the internal port is not part of public
  // URLs; with http a non-80 port is kept (the local `http://acme.localhost:8787` case).
  const port =
    config.publicScheme === 'http' && config.port !== 80 && config.port !== 0
      ? `:${config.port}`
      : '';
  return `${config.publicScheme}://${host}${port}`;
}

/**
 * Origin of a community: `<scheme>://<slug>.<base>[:port]`, or `<scheme>://<base>[:port]/c/<slug>`
 * while serving a path-form request; the apex (slug null) is `<scheme>://<base>[:port]`.
 */
export function communityOrigin(config: UrlConfig, slug: string | null): string {
  if (!slug) return origin(config, config.baseDomain);
  if (pathForm.getStore()) return `${origin(config, config.baseDomain)}${PATH_FORM_PREFIX}${slug}`;
  return origin(config, `${slug}.${config.baseDomain}`);
}

/** A path on the community's own site, as a link inside its pages: `/t/x`, or `/c/acme/t/x` in the path form. */
export function communityPath(slug: string, path: string): string {
  return pathForm.getStore() ? `${PATH_FORM_PREFIX}${slug}${path}` : path;
}

/** `…/t/<topic-slug>`, or `…/t/<topic-slug>#post-<post-id>` for one post. */
export function topicUrl(
  config: UrlConfig,
  communitySlug: string,
  topicSlug: string,
  postId?: string,
): string {
  const url = `${communityOrigin(config, communitySlug)}/t/${topicSlug}`;
  return postId ? `${url}#post-${postId}` : url;
}

/** The community's MCP endpoint. */
export function communityMcpUrl(config: UrlConfig, communitySlug: string): string {
  return `${communityOrigin(config, communitySlug)}/api/mcp`;
}

/** The community's origin in the path form, `<scheme>://<base>[:port]/c/<slug>`, whatever the request. */
export function communityPathOrigin(config: UrlConfig, communitySlug: string): string {
  return inPathForm(() => communityOrigin(config, communitySlug));
}
