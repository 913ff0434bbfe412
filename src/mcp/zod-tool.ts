// Declaring a tool with zod: one schema gives both the JSON Schema 2020-12 that tools/list shows and
// the validation that tools/call applies, so the two can never disagree.
import { z } from 'zod';
import type { RequestContext } from './context.ts';
import { withFailureShape } from './tool-failure.ts';
import type { ToolAnnotations, ToolDef, ToolResult } from './surface.ts';

type ZodTool<
  I extends z.ZodType<Record<string, unknown>>,
  O extends z.ZodType<Record<string, unknown>>,
> = {
  name: string;
  title?: string;
  description: string;
  input: I;
  output?: O;
  annotations?: ToolAnnotations;
  /** Return the structured output (it becomes structuredContent and content[0].text), or a full result. */
  handler: (args: z.output<I>, ctx: RequestContext) => Promise<z.input<O> | ToolResult>;
};

export function zodTool<
  I extends z.ZodType<Record<string, unknown>>,
  O extends z.ZodType<Record<string, unknown>>,
>(def: ZodTool<I, O>): ToolDef {
  const output = def.output;
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: z.toJSONSchema(def.input, { target: 'draft-2020-12', io: 'input' }) as Record<
      string,
      unknown
    >,
    outputSchema: output
      ? withFailureShape(
          z.toJSONSchema(output, { target: 'draft-2020-12', io: 'output' }) as Record<
            string,
            unknown
          >,
        )
      : undefined,
    annotations: def.annotations,
    parseArguments(args) {
      const parsed = def.input.safeParse(args);
      if (parsed.success) return { ok: true, value: parsed.data };
      return {
        ok: false,
        error: `Invalid arguments for tool "${def.name}": ${describeIssues(parsed.error)}`,
      };
    },
    checkOutput: output
      ? (structured) => {
          const parsed = output.safeParse(structured);
          return parsed.success ? undefined : describeIssues(parsed.error);
        }
      : undefined,
    async handler(args, ctx) {
      const out = await def.handler(args as z.output<I>, ctx);
      if (output && !isToolResult(out))
        return { structuredContent: out as Record<string, unknown> };
      return out as ToolResult;
    },
  };
}

/** "filters.limit: Too big: expected number to be <=50; query: Required" */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`)
    .join('; ');
}

function isToolResult(v: unknown): v is ToolResult {
  return typeof v === 'object' && v !== null && ('content' in v || 'isError' in v);
}
