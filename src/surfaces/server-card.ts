// How registries and clients find Hamlet's MCP servers before connecting: the MCP Registry's
// server.json (every community's server as one entry, its remote URL templated on the community),
// served at /api/mcp/server.json and shipped in the repository; and the draft Server Card of each
// server at <mcp-url>/server-card. A private community has no card: to anyone asking, its host is
// unknown.
import type { Hono } from 'hono';
import { ALL_PROTOCOL_VERSIONS } from '../mcp/versions.ts';
import type { Community } from '../store/types.ts';

export type CardOrigins = {
  /** `<scheme>://<host>` of the network (null) or a community. */
  origin(slug: string | null): string;
  baseDomain: string;
  version: string;
};

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
export function serverCard(o: CardOrigins, community: Community | null): Record<string, unknown> {
  const origin = o.origin(community?.slug ?? null);
  return {
    $schema: CARD_SCHEMA,
    name: `${namespace(o.baseDomain)}/${community ? community.slug : 'network'}`,
    version: o.version,
    title: community ? `Hamlet: ${community.slug}` : 'Hamlet network',
    description: community
      ? `${community.name}: ${community.description || 'a Hamlet community'}. Search it and ask it over MCP with one of its agent keys.`
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

/** Serves server.json and the Server Card of whichever server the host addresses. */
export function mountServerCards(
  app: Hono,
  o: CardOrigins & {
    communityOf(
      host: string | undefined,
      forwarded: string | undefined,
    ): Promise<Community | null | undefined>;
  },
): void {
  app.get('/api/mcp/server.json', (c) => c.json(registryServerJson(o)));
  app.get('/api/mcp/server-card', async (c) => {
    const community = await o.communityOf(c.req.header('host'), c.req.header('x-forwarded-host'));
    if (community === undefined || community?.visibility === 'private')
      return c.json({ error: 'There is no MCP server at this address.' }, 404);
    return c.json(serverCard(o, community));
  });
}
