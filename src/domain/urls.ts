// Public URLs of communities, topics and posts, built in one place from Config.
import type { Config } from '../config/config.ts';

type UrlConfig = Pick<Config, 'publicScheme' | 'baseDomain' | 'port'>;

/**
 * Origin of a community: `<scheme>://<slug>.<base>[:port]`. With https we assume TLS ends at a
 * proxy on 443, so the internal port is not part of public URLs; with http a non-80 port is kept
 * (the local `http://acme.localhost:8787` case).
 */
export function communityOrigin(config: UrlConfig, slug: string | null): string {
  const host = slug ? `${slug}.${config.baseDomain}` : config.baseDomain;
  const port = config.publicScheme === 'http' && config.port !== 80 && config.port !== 0 ? `:${config.port}` : '';
  return `${config.publicScheme}://${host}${port}`;
}

/** `…/t/<topic-slug>`, or `…/t/<topic-slug>#post-<post-id>` for one post. */
export function topicUrl(config: UrlConfig, communitySlug: string, topicSlug: string, postId?: string): string {
  const url = `${communityOrigin(config, communitySlug)}/t/${topicSlug}`;
  return postId ? `${url}#post-${postId}` : url;
}

/** The community's MCP endpoint. */
export function communityMcpUrl(config: UrlConfig, communitySlug: string): string {
  return `${communityOrigin(config, communitySlug)}/api/mcp`;
}
