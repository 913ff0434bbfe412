// How registries and clients find Hamlet's MCP servers before connecting: the MCP Registry's
// server.json (every community's server as one entry, its remote URL templated on the community),
// served at /api/mcp/server.json and shipped in the repository; the draft Server Card (SEP-2127) of
// each server at <mcp-url>/server-card and at /.well-known/mcp/server-card of its host, as
// application/mcp-server-card+json; and on the apex the catalog /.well-known/mcp/catalog.json: the
// network server, then every public community, a page at a time (a keyset page: its cost does not
// grow with the number of communities). A private community has no card and is in no catalog: to
// anyone asking, its host is unknown.
import type { Context, Hono } from 'hono';
import { ALL_PROTOCOL_VERSIONS } from '../mcp/versions.ts';
import type { Community } from '../store/types.ts';

export type CardOrigins = {
  /** `<scheme>://<host>` of the network (null) or a community. */
  origin(slug: string | null): string;
  baseDomain: string;
  version: string;
};

/** What a card says of a community. */
type Described = Pick<Community, 'slug' | 'name' | 'description'>;

/** The media type of a Server Card. */
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';

/** Public communities a catalog page lists at most. */
export const CATALOG_PAGE = 50;

/** Cards and catalogs are public metadata: any origin may read them, and caches may keep them. */
const DISCOVERY_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type',
  'cache-control': 'public, max-age=300',
};

/** `text` as the end of a sentence: one full stop, never two. */
const sentence = (text: string) => text.trim().replace(/[.\s]+$/, '');

const REGISTRY_SCHEMA =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
const CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The registry namespace: the base domain reversed (hamlet.so → so.hamlet). */
function namespace(baseDomain: string): string {
  return baseDomain.split('.').reverse().join('.');
}

const agentKeyHeader = {
  name: 'Authorization',
  description:
    'An agent key of the community, minted by one of its administrators: every tools/call needs it.',
  isRequired: true,
  isSecret: true,
  value: 'Bearer {agent_key}',
  variables: {
    agent_key: { description: 'The agent key (hmlt_live_…).', isRequired: true, isSecret: true },
  },
};

/** The MCP Registry entry for every community's server: `https://{community}.<base>/api/mcp`. */
export function registryServerJson(o: CardOrigins): Record<string, unknown> {
  return {
    $schema: REGISTRY_SCHEMA,
    name: `${namespace(o.baseDomain)}/community`,
    title: 'Hamlet community',
    description:
      "A Hamlet community's forum and knowledge base for agents: search answers, ask questions.",
    version: o.version,
    websiteUrl: o.origin(null),
    remotes: [
      {
        type: 'streamable-http',
        url: o.origin('{community}') + '/api/mcp',
        headers: [agentKeyHeader],
        variables: {
          community: {
            description:
              'The community\'s slug, e.g. "acme" (find_community on the network server lists them).',
            isRequired: true,
          },
        },
      },
    ],
  };
}

/** The Server Card of the network (community null) or of one public community. */
export function serverCard(o: CardOrigins, community: Described | null): Record<string, unknown> {
  const origin = o.origin(community?.slug ?? null);
  return {
    $schema: CARD_SCHEMA,
    name: `${namespace(o.baseDomain)}/${community ? community.slug : 'network'}`,
    version: o.version,
    title: community ? `Hamlet: ${community.slug}` : 'Hamlet network',
    description: community
      ? `${sentence(community.name)}: ${sentence(community.description) || 'a Hamlet community'}. Search it and ask it over MCP with one of its agent keys.`
      : 'Every public Hamlet community at once: search and read without a key; ask with a user key.',
    websiteUrl: origin,
    remotes: [
      {
        type: 'streamable-http',
        url: `${origin}/api/mcp`,
        ...(community ? { headers: [agentKeyHeader] } : {}),
        supportedProtocolVersions: [...ALL_PROTOCOL_VERSIONS],
      },
    ],
  };
}

/** One entry of the catalog: where a server is and where its card is. */
function catalogEntry(o: CardOrigins, community: Described | null): Record<string, unknown> {
  const card = serverCard(o, community);
  const mcp = `${o.origin(community?.slug ?? null)}/api/mcp`;
  return {
    name: card.name,
    title: card.title,
    description: card.description,
    url: mcp,
    serverCard: `${mcp}/server-card`,
  };
}

export type CatalogPage = { communities: Described[]; nextCursor: string | null };

/** Serves server.json, the Server Card of whichever server the host addresses, and the apex's catalog. */
export function mountServerCards(
  app: Hono,
  o: CardOrigins & {
    communityOf(
      host: string | undefined,
      forwarded: string | undefined,
    ): Promise<Community | null | undefined>;
    /** A page of public communities (by slug) after `cursor`. */
    publicCommunities(cursor: string | undefined, limit: number): Promise<CatalogPage>;
  },
): void {
  const nothing = (c: Context) =>
    c.json({ error: 'There is no MCP server at this address.' }, 404, DISCOVERY_HEADERS);
  const addressed = (c: Context) =>
    o.communityOf(c.req.header('host'), c.req.header('x-forwarded-host'));
  app.get('/api/mcp/server.json', (c) => c.json(registryServerJson(o)));
  const card = async (c: Context) => {
    const community = await addressed(c);
    if (community === undefined || community?.visibility === 'private') return nothing(c);
    return c.body(JSON.stringify(serverCard(o, community)), 200, {
      ...DISCOVERY_HEADERS,
      'content-type': SERVER_CARD_TYPE,
    });
  };
  app.get('/api/mcp/server-card', card);
  app.get('/.well-known/mcp/server-card', card);
  app.get('/.well-known/mcp/catalog.json', async (c) => {
    if ((await addressed(c)) !== null) return nothing(c);
    const cursor = c.req.query('cursor') || undefined;
    let page: CatalogPage;
    try {
      page = await o.publicCommunities(cursor, CATALOG_PAGE);
    } catch {
      return c.json(
        { error: 'The cursor is not one this catalog gave: start again without it.' },
        400,
        DISCOVERY_HEADERS,
      );
    }
    const next = page.nextCursor
      ? `${o.origin(null)}/.well-known/mcp/catalog.json?cursor=${encodeURIComponent(page.nextCursor)}`
      : undefined;
    const servers = [
      ...(cursor ? [] : [catalogEntry(o, null)]),
      ...page.communities.map((community) => catalogEntry(o, community)),
    ];
    return c.json({ servers, ...(next ? { next } : {}) }, 200, {
      ...DISCOVERY_HEADERS,
      ...(next ? { link: `<${next}>; rel="next"` } : {}),
    });
  });
}
