// Connected apps (MCP hosts a person connected with OAuth) as operations: a person lists and
// disconnects their own; administrators list and disconnect everyone's, and say which apps may
// connect (the trust policy). The OAuth protocol itself (consent, tokens) is the authorization
// server's, in src/domain/oauth; these are what the web pages (and REST) show and change.
import { z } from 'zod';
import type { Connection } from '../domain/oauth/connections.ts';
import { TRUST_MODES } from '../domain/oauth/clients.ts';
import { recordId } from '../domain/fields.ts';
import { SCOPES } from '../domain/vocabulary.ts';
import { defineOperation } from './operation.ts';

const connectionOut = z.object({
  id: z.string(),
  client_id: z
    .string()
    .describe("The app's client id: the URL of its metadata document, or an id Hamlet issued."),
  client_name: z.string(),
  scopes: z
    .array(z.enum(SCOPES))
    .describe("What the app may do beyond reading, capped by the person's role when used."),
  person: z.object({ id: z.string(), name: z.string() }),
  connected_at: z.string(),
  last_used_at: z.string().nullable(),
});

const policyOut = z.object({
  mode: z
    .enum(TRUST_MODES)
    .describe(
      '"any" app that identifies itself; only apps from "domains"; only "registered" apps.',
    ),
  allowed_domains: z.array(z.string()),
});
const presentPolicy = (p: {
  mode: (typeof TRUST_MODES)[number];
  allowedDomains: string[];
}): z.infer<typeof policyOut> => ({ mode: p.mode, allowed_domains: p.allowedDomains });

function presentConnection(c: Connection): z.input<typeof connectionOut> {
  return {
    id: c.id,
    client_id: c.clientId,
    client_name: c.clientName,
    scopes: c.scopes,
    person: { id: c.personId, name: c.personName },
    connected_at: c.connectedAt,
    last_used_at: c.lastUsedAt,
  };
}

export const listMyConnections = defineOperation({
  name: 'list_my_connections',
  server: 'community',
  title: 'My connected apps',
  description:
    'The apps (Claude, ChatGPT, …) you connected to this community with OAuth, and what each may do.',
  input: z.strictObject({}),
  output: z.object({ connections: z.array(connectionOut) }),
  credential: 'community',
  run: async (ctx) => ({
    connections: (await ctx.services.oauth.connections.mine(ctx.actor, ctx.community)).map(
      presentConnection,
    ),
  }),
});

export const listConnections = defineOperation({
  name: 'list_connections',
  server: 'community',
  title: 'Connected apps of everyone',
  description: 'Every app people connected to this community with OAuth (administrators).',
  input: z.strictObject({}),
  output: z.object({ connections: z.array(connectionOut) }),
  credential: 'community',
  run: async (ctx) => ({
    connections: (await ctx.services.oauth.connections.all(ctx.actor, ctx.community)).map(
      presentConnection,
    ),
  }),
});

export const disconnectApp = defineOperation({
  name: 'disconnect_app',
  server: 'community',
  title: 'Disconnect an app',
  description:
    "Ends a connection: its tokens stop working at their next use. Your own, or anyone's for administrators.",
  input: z.strictObject({
    connection: recordId.describe(
      'The connection id, from list_my_connections or list_connections.',
    ),
  }),
  output: z.object({ disconnected: connectionOut }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    ctx.audit.targets.grant_id = input.connection;
    return {
      disconnected: presentConnection(
        await ctx.services.oauth.connections.revoke(ctx.actor, ctx.community, input.connection),
      ),
    };
  },
});

export const getAppPolicy = defineOperation({
  name: 'get_app_policy',
  server: 'community',
  title: 'Which apps may connect',
  description: "The community's trust policy for apps connecting with OAuth (administrators).",
  input: z.strictObject({}),
  output: policyOut,
  credential: 'community',
  run: async (ctx) => {
    return presentPolicy(await ctx.services.oauth.clients.policyFor(ctx.actor, ctx.community));
  },
});

export const setAppPolicy = defineOperation({
  name: 'set_app_policy',
  server: 'community',
  title: 'Set which apps may connect',
  description:
    'Any app that identifies itself, only apps whose metadata document is on allowed domains, or only registered apps.',
  input: z.strictObject({
    mode: z.enum(TRUST_MODES),
    allowed_domains: z
      .array(z.string().max(253))
      .max(50)
      .default([])
      .describe('For "domains": e.g. ["claude.ai", "chatgpt.com"] (subdomains included).'),
  }),
  output: policyOut,
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    return presentPolicy(
      await ctx.services.oauth.clients.setPolicy(ctx.actor, ctx.community, {
        mode: input.mode,
        allowedDomains: input.allowed_domains,
      }),
    );
  },
});

export const OAUTH_OPERATIONS = [
  listMyConnections,
  listConnections,
  disconnectApp,
  getAppPolicy,
  setAppPolicy,
];
