// A community's MCP surface as declarative configuration: which tool mode its server
// uses, words its administrators add to the agent instructions, prompts of its own with
// {{ argument }} placeholders, and skills of its own (instructions in markdown, perhaps with files,
// served through the MCP Skills extension beside the built-in ones). Admins set it (CLI from a JSON file, later the admin pages); live
// sessions hear about a change as list_changed notifications.
import { z } from 'zod';
import type { Store } from '../store/repositories.ts';
import type { Community } from '../store/types.ts';
import type { Actor } from './actor.ts';
import { DomainError } from './errors.ts';
import { requireCommunityAdmin } from './authorization.ts';
import { TOOLSETS } from './vocabulary.ts';

const name = z
  .string()
  .regex(
    /^[a-z][a-z0-9_-]{1,63}$/,
    'must be 2-64 characters of a-z, 0-9, "_" and "-", starting with a letter',
  );

/** The prompts every community server has; a community's own prompts may not take these names. */
export const BUILT_IN_PROMPTS = [
  'ask_a_good_question',
  'answer_from_community',
  'summarize_topic',
] as const;

const promptSchema = z
  .strictObject({
    name,
    title: z.string().trim().min(1).max(100).optional(),
    description: z.string().trim().max(1000).optional(),
    arguments: z
      .array(
        z.strictObject({
          name,
          description: z.string().trim().max(500).optional(),
          required: z.boolean().default(false),
        }),
      )
      .max(10)
      .default([]),
    template: z.string().min(1).max(20_000),
  })
  .superRefine((p, ctx) => {
    const declared = new Set(p.arguments.map((a) => a.name));
    for (const m of p.template.matchAll(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g)) {
      if (!declared.has(m[1]!))
        ctx.addIssue({
          code: 'custom',
          path: ['template'],
          message: `uses {{ ${m[1]} }}, which is not one of its arguments`,
        });
    }
  });

/** The skills every community server has; a community's own skills may not take these names. */
export const BUILT_IN_SKILLS = [
  'community-guidelines',
  'asking-and-answering',
  'hamlet-knowledge',
] as const;

/** A skill's name, as the Agent Skills format has it: a-z, 0-9 and single inner hyphens. */
const skillName = z
  .string()
  .regex(
    /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/,
    'must be 1-64 characters of a-z, 0-9 and single hyphens, not starting or ending with one',
  );

const skillSchema = z.strictObject({
  name: skillName,
  description: z.string().trim().min(1).max(1024),
  /** The instructions (markdown): the SKILL.md after its frontmatter. */
  body: z.string().min(1).max(20_000),
  /** Further files of the skill, by their path within it (e.g. references/forms.md). */
  files: z
    .array(
      z.strictObject({
        path: z
          .string()
          .regex(
            /^(?!.*\.\.)(?!SKILL\.md$)[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*){0,3}$/,
            'must be a relative path of up to 4 segments of letters, digits, ".", "_" and "-" (not SKILL.md)',
          ),
        text: z.string().max(20_000),
      }),
    )
    .max(10)
    .default([]),
});

/** The positions of the keys that are `taken` or came earlier in the list. */
function repeats(keys: readonly string[], taken: readonly string[] = []): Set<number> {
  const seen = new Set<string>(taken);
  const out = new Set<number>();
  keys.forEach((k, i) => {
    if (seen.has(k)) out.add(i);
    seen.add(k);
  });
  return out;
}

export const communityMcpConfigSchema = z
  .strictObject({
    tool_mode: z.enum(['full', 'two-tool']).default('full'),
    search_limit: z.number().int().min(1).max(50).default(10),
    /** Toolsets whose tools the server lists beside the default nine. */
    toolsets: z.array(z.enum(TOOLSETS)).max(TOOLSETS.length).default([]),
    instructions: z.string().trim().max(4000).default(''),
    prompts: z.array(promptSchema).max(50).default([]),
    skills: z.array(skillSchema).max(20).default([]),
  })
  .superRefine((c, ctx) => {
    const takenSkills = repeats(
      c.skills.map((skill) => skill.name),
      BUILT_IN_SKILLS,
    );
    c.skills.forEach((skill, i) => {
      if (takenSkills.has(i))
        ctx.addIssue({
          code: 'custom',
          path: ['skills', i, 'name'],
          message: `"${skill.name}" is taken (built-in skills and names must be unique)`,
        });
      for (const j of repeats(skill.files.map((f) => f.path)))
        ctx.addIssue({
          code: 'custom',
          path: ['skills', i, 'files', j, 'path'],
          message: `"${skill.files[j]!.path}" appears twice`,
        });
    });
    for (const i of repeats(
      c.prompts.map((p) => p.name),
      BUILT_IN_PROMPTS,
    ))
      ctx.addIssue({
        code: 'custom',
        path: ['prompts', i, 'name'],
        message: `"${c.prompts[i]!.name}" is taken (built-in prompts and names must be unique)`,
      });
  });

export type CommunityMcpConfig = z.output<typeof communityMcpConfigSchema>;
export const DEFAULT_MCP_CONFIG: CommunityMcpConfig = communityMcpConfigSchema.parse({});

export class CommunityMcpService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** The configuration in force (defaults when none was set); for building the surface. */
  async load(communityId: string): Promise<{ config: CommunityMcpConfig; updatedAt: number }> {
    const stored = await this.store.mcpConfig.get(communityId);
    if (!stored) return { config: DEFAULT_MCP_CONFIG, updatedAt: 0 };
    const parsed = communityMcpConfigSchema.safeParse(stored.config);
    // A document written by an older version that no longer validates falls back to the defaults.
    return {
      config: parsed.success ? parsed.data : DEFAULT_MCP_CONFIG,
      updatedAt: stored.updatedAt,
    };
  }

  async get(actor: Actor, community: Community): Promise<CommunityMcpConfig> {
    await requireCommunityAdmin(this.store, actor, community, 'read the MCP configuration');
    return (await this.load(community.id)).config;
  }

  async set(actor: Actor, community: Community, input: unknown): Promise<CommunityMcpConfig> {
    await requireCommunityAdmin(this.store, actor, community, 'change the MCP configuration');
    const parsed = communityMcpConfigSchema.safeParse(input);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`)
        .join('; ');
      throw new DomainError('invalid_argument', `The MCP configuration is not valid: ${problems}.`);
    }
    await this.store.mcpConfig.put(community.id, parsed.data, this.now());
    return parsed.data;
  }
}
