// Communities as people see and run them: the directory of public communities on the network apex,
// creating a community of one's own (where the operator allows it), and a community's settings
// (name, description, guidelines, public or private) for its administrators.
import { z } from 'zod';
import { communitySlugSchema } from '../domain/communities.ts';
import { cursor, LIMITS, pageLimit, span } from '../domain/fields.ts';
import { ROLES } from '../domain/vocabulary.ts';
import type { CommunityView } from '../domain/views.ts';
import { defineOperation, type Urls } from './operation.ts';
import { presentCommunity } from './present.ts';
import { communitySummary } from './schemas.ts';

const visibility = z.enum(['public', 'private']);
const name = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters');
const description = z.string().trim().max(2000, 'must be at most 2000 characters');
const guidelines = z.string().trim().max(20_000, 'must be at most 20000 characters');

const communityOut = communitySummary.extend({ visibility });

const settingsOut = communityOut.extend({ guidelines: z.string() });

function present(c: CommunityView, urls: Urls) {
  return { ...presentCommunity(c, urls), visibility: c.visibility };
}

export const listCommunities = defineOperation({
  name: 'list_communities',
  server: 'network',
  title: 'Public communities',
  description:
    'The directory of public communities on this Hamlet, by slug, with their web and MCP addresses.',
  input: z.strictObject({
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    limit: pageLimit(100, 50).describe('Communities per page, 1-100. Default 50.'),
  }),
  output: z.object({ communities: z.array(communityOut), next_cursor: z.string().nullable() }),
  credential: 'none',
  run: async (ctx, input) => {
    const page = await ctx.services.communities.listPublic(input);
    return {
      communities: page.communities.map((c) => present(c, ctx.urls)),
      next_cursor: page.nextCursor,
    };
  },
});

export const listMyCommunities = defineOperation({
  name: 'list_my_communities',
  server: 'network',
  title: 'Your communities',
  description:
    'The communities you hold a role in, public and private, with your role and their web and MCP addresses.',
  input: z.strictObject({}),
  output: z.object({
    communities: z.array(communityOut.extend({ role: z.enum(ROLES) })),
  }),
  credential: 'user',
  run: async (ctx) => ({
    communities: (await ctx.services.communities.listMine(ctx.actor)).map((m) => ({
      ...present(m.community, ctx.urls),
      role: m.role as (typeof ROLES)[number],
    })),
  }),
});

export const createCommunity = defineOperation({
  name: 'create_community',
  server: 'network',
  title: 'Create a community',
  description:
    'A new community with you as its owner and one "General" category, where the operator allows people to create them.',
  input: z.strictObject({
    slug: communitySlugSchema.describe(
      `Its address: <slug>.<base>. ${span(LIMITS.communitySlug)} characters of a-z, 0-9 and "-".`,
    ),
    name: name.describe('Its name (1-100 characters).'),
    description: description.default('').describe('What it is about, in a sentence or two.'),
    visibility: visibility
      .default('public')
      .describe(
        '"public": anyone reads it and the network searches it; "private": members and its agents only.',
      ),
  }),
  output: communityOut,
  credential: 'user',
  write: true,
  run: async (ctx, input) => {
    // The call's audit entry belongs to the new community (the runner writes it there).
    const created = await ctx.services.communities.createOwned(ctx.actor, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return present(created, ctx.urls);
  },
});

export const getCommunitySettings = defineOperation({
  name: 'get_community_settings',
  server: 'community',
  title: 'Community settings',
  description:
    "This community's name, description, guidelines and visibility. Administrators only.",
  input: z.strictObject({}),
  output: settingsOut,
  credential: 'community',
  run: async (ctx) => {
    const c = await ctx.services.communities.settings(ctx.actor, ctx.community);
    return { ...present(c, ctx.urls), guidelines: c.guidelines };
  },
});

export const updateCommunitySettings = defineOperation({
  name: 'update_community_settings',
  server: 'community',
  title: 'Change the community settings',
  description:
    'Changes the name, description, guidelines or visibility (a private community disappears from the network at once). Administrators only.',
  input: z.strictObject({
    name: name.optional().describe('Its name (1-100 characters).'),
    description: description.optional().describe('What it is about.'),
    guidelines: guidelines
      .optional()
      .describe('What askers and answerers should know, in Markdown (agents read it too).'),
    visibility: visibility.optional().describe('"public" or "private".'),
  }),
  output: settingsOut,
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const c = await ctx.services.communities.updateSettings(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return { ...present(c, ctx.urls), guidelines: c.guidelines };
  },
});

export const WEB_COMMUNITY_OPERATIONS = [getCommunitySettings, updateCommunitySettings];
export const WEB_NETWORK_OPERATIONS = [listCommunities, listMyCommunities, createCommunity];
