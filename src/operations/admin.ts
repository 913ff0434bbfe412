// Administering a community: its agents and their keys (a key is shown once, when minted), its
// members and their roles, and its MCP configuration. Administrators only (the one rule in
// src/domain/authorization.ts); the REST API and the admin pages offer these, MCP does not.
import { z } from 'zod';
import { communityMcpConfigSchema } from '../domain/community-mcp.ts';
import type { AgentKeyView, AgentView } from '../domain/identity/agents.ts';
import { ROLES, SCOPES } from '../domain/vocabulary.ts';
import {
  agentName,
  cursor,
  expiresInDays,
  keyRef,
  LIMITS,
  memberQuery,
  pageLimit,
  span,
} from '../domain/fields.ts';
import { presentKey } from './present.ts';
import { keyOut } from './schemas.ts';
import { defineOperation } from './operation.ts';

const agentOut = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  trusted: z.boolean(),
  created_at: z.string(),
});

const agentKeyOut = keyOut.extend({ agent_id: z.string() });
const mintedOut = z.object({
  key: z.string().describe('The key itself, shown this once: store it now.'),
  record: agentKeyOut,
});

const agentRef = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .describe('The agent id or name.');

export function presentAgent(a: AgentView): z.input<typeof agentOut> {
  return {
    id: a.id,
    name: a.name,
    scopes: a.scopes as z.input<typeof agentOut>['scopes'],
    trusted: a.trusted,
    created_at: a.createdAt,
  };
}

export function presentAgentKey(k: AgentKeyView): z.input<typeof agentKeyOut> {
  return { ...presentKey(k), agent_id: k.agentId };
}

export const listAgents = defineOperation({
  name: 'list_agents',
  server: 'community',
  title: 'List agents',
  description:
    "This community's agents with their scopes and whether they are trusted (their writes skip the approval queue).",
  input: z.strictObject({}),
  output: z.object({ agents: z.array(agentOut) }),
  credential: 'community',
  run: async (ctx) => ({
    agents: (await ctx.services.agents.list(ctx.actor, ctx.community)).map(presentAgent),
  }),
});

export const createAgent = defineOperation({
  name: 'create_agent',
  server: 'community',
  title: 'Create an agent',
  description: 'Creates an agent with scopes and mints its first key (shown once).',
  input: z.strictObject({
    name: agentName.describe(
      'A name people recognise, unique in the community (1-100 characters).',
    ),
    scopes: z
      .array(z.enum(SCOPES))
      .max(SCOPES.length)
      .default([])
      .describe('What the agent may do beyond reading.'),
    trusted: z
      .boolean()
      .default(false)
      .describe("A trusted agent's writes are published at once, whatever the approval policy."),
    expires_in_days: expiresInDays
      .optional()
      .describe(
        `The first key expires after this many days (${span(LIMITS.expiresInDays)}). Default: never.`,
      ),
  }),
  output: z.object({
    agent: agentOut,
    key: z.string().describe('The key itself, shown this once: store it now.'),
    record: agentKeyOut,
  }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const created = await ctx.services.agents.create(
      ctx.actor,
      ctx.community,
      {
        name: input.name,
        scopes: input.scopes,
        trusted: input.trusted,
        expiresInDays: input.expires_in_days,
      },
      { ip: ctx.ip, audit: ctx.audit },
    );
    return {
      agent: presentAgent(created.agent),
      key: created.key,
      record: presentAgentKey(created.keyRecord),
    };
  },
});

export const updateAgent = defineOperation({
  name: 'update_agent',
  server: 'community',
  title: "Change an agent's access",
  description: "Replaces an agent's scopes and/or whether it is trusted.",
  input: z.strictObject({
    agent: agentRef,
    scopes: z
      .array(z.enum(SCOPES))
      .max(SCOPES.length)
      .optional()
      .describe('The new scopes (replacing the old ones).'),
    trusted: z.boolean().optional().describe('Whether its writes skip the approval queue.'),
  }),
  output: agentOut,
  credential: 'community',
  write: true,
  run: async (ctx, input) =>
    presentAgent(
      await ctx.services.agents.setAccess(ctx.actor, ctx.community, input, {
        ip: ctx.ip,
        audit: ctx.audit,
      }),
    ),
});

export const listAgentKeys = defineOperation({
  name: 'list_agent_keys',
  server: 'community',
  title: 'List agent keys',
  description:
    'The keys of one agent, or of every agent: by prefix, with when they were last used, expire or were revoked. Keys themselves are never shown again.',
  input: z.strictObject({ agent: agentRef.optional() }),
  output: z.object({ keys: z.array(agentKeyOut) }),
  credential: 'community',
  run: async (ctx, input) => ({
    keys: (await ctx.services.agents.listKeys(ctx.actor, ctx.community, input)).map(
      presentAgentKey,
    ),
  }),
});

export const mintAgentKey = defineOperation({
  name: 'mint_agent_key',
  server: 'community',
  title: 'Mint an agent key',
  description: 'A new key for an agent (shown once). Its other keys keep working until revoked.',
  input: z.strictObject({
    agent: agentRef,
    expires_in_days: expiresInDays
      .optional()
      .describe('The key expires after this many days. Default: never.'),
  }),
  output: mintedOut,
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const minted = await ctx.services.agents.mintKey(
      ctx.actor,
      ctx.community,
      { agent: input.agent, expiresInDays: input.expires_in_days },
      { ip: ctx.ip, audit: ctx.audit },
    );
    return { key: minted.key, record: presentAgentKey(minted.keyRecord) };
  },
});

export const revokeAgentKey = defineOperation({
  name: 'revoke_agent_key',
  server: 'community',
  title: 'Revoke an agent key',
  description:
    'The key stops working at once. Give its id, or its prefix when that names one live key.',
  input: z.strictObject({ key: keyRef.describe('The key id or prefix.') }),
  output: agentKeyOut,
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const revoked = await ctx.services.agents.revokeKey(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return presentAgentKey(revoked);
  },
});

const memberOut = z.object({
  person_id: z.string(),
  display_name: z.string(),
  email: z.string().nullable(),
  handle: z.string().nullable().describe('What an @mention of them writes (without the @).'),
  role: z
    .enum(ROLES)
    .nullable()
    .describe('null: the person posted here without a role (set_member gives them one).'),
  since: z.string().describe('When they joined: the role given, else their first post.'),
});
const email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .describe("The person's e-mail address.");

export const listMembers = defineOperation({
  name: 'list_members',
  server: 'community',
  title: 'List members',
  description:
    'The people of this community, newest first: everyone holding a role, and everyone who posted here without one (role null).',
  input: z.strictObject({
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    limit: pageLimit(200, 100).describe('People per page, 1-200. Default 100.'),
    query: memberQuery
      .optional()
      .describe('Only those whose name, e-mail address or handle contains this (any case).'),
  }),
  output: z.object({ members: z.array(memberOut), next_cursor: z.string().nullable() }),
  credential: 'community',
  run: async (ctx, input) => {
    const page = await ctx.services.accounts.listPeople(ctx.actor, ctx.community, input);
    return {
      members: page.people.map((m) => ({
        person_id: m.personId,
        display_name: m.displayName,
        email: m.email,
        handle: m.handle,
        role: m.role as (typeof ROLES)[number] | null,
        since: m.joinedAt,
      })),
      next_cursor: page.nextCursor,
    };
  },
});

export const setMember = defineOperation({
  name: 'set_member',
  server: 'community',
  title: 'Add a member or change a role',
  description:
    'Makes a person (by e-mail, with an account already) a member with this role, or changes their role. Only an owner makes, demotes or removes an owner, and the last owner keeps the role: make another member an owner first.',
  input: z.strictObject({
    email,
    role: z.enum(ROLES).describe('owner, admin, moderator or member.'),
  }),
  output: z.object({ person_id: z.string(), role: z.enum(ROLES) }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const m = await ctx.services.accounts.addMember(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return { person_id: m.personId, role: m.role as (typeof ROLES)[number] };
  },
});

export const removeMember = defineOperation({
  name: 'remove_member',
  server: 'community',
  title: 'Remove a member',
  description:
    'The person is no longer a member (a private community becomes invisible to them). Only an owner removes an owner; the last owner stays.',
  input: z.strictObject({ email }),
  output: z.object({ removed: z.literal(true) }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.accounts.removeMember(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return { removed: true as const };
  },
});

export const getMcpConfig = defineOperation({
  name: 'get_mcp_config',
  server: 'community',
  title: 'MCP configuration',
  description:
    "This community's MCP surface as configuration: tool mode, instructions added for agents, and its own prompts and skills.",
  input: z.strictObject({}),
  output: communityMcpConfigSchema,
  credential: 'community',
  run: (ctx) => ctx.services.mcpConfig.get(ctx.actor, ctx.community),
});

export const setMcpConfig = defineOperation({
  name: 'set_mcp_config',
  server: 'community',
  title: 'Set the MCP configuration',
  description:
    'Replaces the MCP configuration; connected agents hear that their tool, prompt and resource lists (skills are resources) changed.',
  input: z.strictObject({
    config: communityMcpConfigSchema.describe('The whole configuration document.'),
  }),
  output: communityMcpConfigSchema,
  credential: 'community',
  write: true,
  run: (ctx, { config }) => ctx.services.mcpConfig.set(ctx.actor, ctx.community, config),
});

export const ADMIN_OPERATIONS = [
  listAgents,
  createAgent,
  updateAgent,
  listAgentKeys,
  mintAgentKey,
  revokeAgentKey,
  listMembers,
  setMember,
  removeMember,
  getMcpConfig,
  setMcpConfig,
];
