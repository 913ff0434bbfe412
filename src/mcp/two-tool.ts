// The two-tool mode: tools/list shows only `search` (natural-language
// search over the real tools' public metadata) and `execute` ({tool, inputs}, validated against
// that tool's own schema and run exactly as tools/call would run it, with the same auth).
import { z } from 'zod';
import type { EngineLogger } from './context.ts';
import { errorResult, runTool } from './run-tool.ts';
import type { ToolDef } from './surface.ts';
import { zodTool } from './zod-tool.ts';

export function twoToolMode(
  tools: ToolDef[],
  options: { searchLimit?: number; logger: EngineLogger },
): ToolDef[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const index = tools.map((t) => ({ tool: t, fields: indexFields(t) }));
  const defaultLimit = options.searchLimit ?? 10;

  const search = zodTool({
    name: 'search',
    title: 'Find a tool',
    description:
      'Search the available tools by what you want to do, in plain words. Returns each matching tool with its input schema; run one with execute.',
    input: z.strictObject({
      query: z
        .string()
        .trim()
        .min(1)
        .max(500)
        .describe('What you want to do, e.g. "find an existing answer" or "ask a question".'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(50)
        .default(defaultLimit)
        .describe(`How many tools, 1-50. Default ${defaultLimit}.`),
    }),
    output: z.object({
      query: z.string(),
      total: z.number().int(),
      tools: z.array(
        z.object({
          name: z.string(),
          title: z.string().optional(),
          description: z.string(),
          inputSchema: z.record(z.string(), z.unknown()),
          annotations: z.record(z.string(), z.unknown()).optional(),
        }),
      ),
    }),
    annotations: {
      title: 'Find a tool',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    handler: async ({ query, limit }) => {
      const terms = words(query);
      const ranked = index
        .map(({ tool, fields }) => ({ tool, score: score(terms, fields) }))
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name));
      return {
        query,
        total: ranked.length,
        tools: ranked.slice(0, limit).map(({ tool }) => ({
          name: tool.name,
          ...(tool.title ? { title: tool.title } : {}),
          description: tool.description,
          inputSchema: tool.inputSchema,
          ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
        })),
      };
    },
  });

  const execute: ToolDef = {
    name: 'execute',
    title: 'Run a tool',
    description:
      "Run one of the tools found with search: give its name and its inputs (validated against that tool's input schema).",
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        tool: {
          type: 'string',
          minLength: 1,
          description: 'The tool name, as search returned it.',
        },
        inputs: { type: 'object', description: "The tool's arguments. Default {}.", default: {} },
      },
      required: ['tool'],
      additionalProperties: false,
    },
    annotations: { title: 'Run a tool', openWorldHint: false },
    parseArguments(args) {
      const parsed = z
        .strictObject({
          tool: z.string().min(1),
          inputs: z.record(z.string(), z.unknown()).default({}),
        })
        .safeParse(args);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : {
            ok: false,
            error:
              'Invalid arguments for tool "execute": expected { tool: string, inputs?: object }.',
          };
    },
    async handler(args, ctx) {
      const target = byName.get(args.tool as string);
      if (!target)
        return errorResult({
          error: `No tool named "${String(args.tool)}". Find tools with search.`,
          code: 'not_found',
        });
      return runTool(target, args.inputs as Record<string, unknown>, ctx, options.logger);
    },
  };
  return [search, execute];
}

type Fields = { name: string[]; title: string[]; description: string[]; properties: string[] };

function indexFields(t: ToolDef): Fields {
  const props = (t.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
  return {
    name: words(t.name.replace(/_/g, ' ')),
    title: words(t.title ?? ''),
    description: words(t.description),
    properties: words(
      Object.entries(props)
        .map(([k, v]) => `${k.replace(/_/g, ' ')} ${v?.description ?? ''}`)
        .join(' '),
    ),
  };
}

const WEIGHTS: Record<keyof Fields, number> = {
  name: 3,
  title: 2,
  description: 1,
  properties: 0.5,
};
const STOP = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'in',
  'on',
  'for',
  'and',
  'or',
  'i',
  'me',
  'my',
  'is',
  'it',
  'how',
  'do',
  'can',
  'with',
  'this',
  'that',
  'what',
  'want',
]);

function score(terms: string[], fields: Fields): number {
  let total = 0;
  for (const term of terms) {
    for (const field of Object.keys(WEIGHTS) as Array<keyof Fields>) {
      if (
        fields[field].some(
          (w) =>
            w === term ||
            (term.length >= 4 && (w.startsWith(term) || term.startsWith(w)) && w.length >= 4),
        )
      ) {
        total += WEIGHTS[field];
      }
    }
  }
  return total;
}

/** Lower-case words without stop words, with a light plural/tense stemming. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !STOP.has(w))
    .map((w) => w.replace(/(ing|ed|es|s)$/, '') || w);
}
