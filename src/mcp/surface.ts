// What an MCP server offers: tools, prompts, resources and resource templates, declared as plain
// data plus handlers. The engine serves whatever Surface the transport resolved for a request, so a
// community's surface can differ from the network's and can change without a restart.
import type {
  ContentBlock,
  PromptMessage,
  ResourceContents,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { InputResponse, RequestContext } from './context.ts';
import type { InputRequest, InputRequired } from './input-required.ts';

export type JsonSchema = Record<string, unknown>;
export type { ContentBlock, PromptMessage, ResourceContents, ToolAnnotations };

export type ToolResult = {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

export type ArgumentCheck =
  { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export type ToolDef = {
  name: string;
  title?: string;
  description: string;
  /** JSON Schema 2020-12, listed exactly as given. */
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  /** Validates and normalizes arguments; a failure becomes an `isError` result carrying only `error`. */
  parseArguments?: (args: Record<string, unknown>) => ArgumentCheck;
  /** Checks `structuredContent` against `outputSchema`; returns a problem description or undefined. */
  checkOutput?: (structured: Record<string, unknown>) => string | undefined;
  /**
   * Whether the tool may answer RunAsTask (Tasks extension): `optional` runs the work inline for a
   * client that cannot follow a task, `required` refuses such a client (-32021) before the handler.
   */
  taskSupport?: 'optional' | 'required';
  /**
   * The result, InputRequired when the client must answer something first, or RunAsTask to go on
   * as a task (see taskSupport).
   */
  handler: (
    args: Record<string, unknown>,
    ctx: RequestContext,
  ) => Promise<ToolResult | InputRequired | RunAsTask> | ToolResult | InputRequired | RunAsTask;
};

export type PromptArgument = { name: string; description?: string; required?: boolean };

export type RenderedPrompt = { description?: string; messages: PromptMessage[] };

export type PromptDef = {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  render: (
    args: Record<string, string>,
    ctx: RequestContext,
  ) => Promise<RenderedPrompt | InputRequired> | RenderedPrompt | InputRequired;
  /** Suggestions for one argument's value; `context` holds the other arguments already chosen. */
  complete?: (
    argument: string,
    value: string,
    context: Record<string, string>,
    ctx: RequestContext,
  ) => Promise<string[]>;
};

export type ResourceDef = {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** How long a client may reuse what read returns (2026-07-28 `ttlMs`); default 0. */
  ttlMs?: number;
  read: (ctx: RequestContext) => Promise<ResourceContents[] | InputRequired>;
};

export type ResourceTemplateDef = {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  ttlMs?: number;
  read: (
    uri: string,
    variables: Record<string, string>,
    ctx: RequestContext,
  ) => Promise<ResourceContents[] | InputRequired>;
  complete?: (
    variable: string,
    value: string,
    context: Record<string, string>,
    ctx: RequestContext,
  ) => Promise<string[]>;
};

export type ServerInfo = { name: string; title?: string; version: string };

export type Surface = {
  serverInfo: ServerInfo;
  instructions?: string;
  /**
   * Caching hints of the 2026-07-28 era: who may share a cached list or read (`private` when it
   * depends on who asks) and how long lists stay fresh.
   */
  cache?: { scope: 'public' | 'private'; listTtlMs: number };
  tools: ToolDef[];
  prompts: PromptDef[];
  resources: ResourceDef[];
  templates: ResourceTemplateDef[];
  /** The skills it serves (Skills extension, declared when present); see withSkills. */
  skills?: SkillDef[];
  /**
   * Wraps every method that returns content other than the tool list (resources/read, prompts/get,
   * completion/complete, resources/subscribe and unsubscribe, skills/list and skills/get, and the
   * Tasks extension's tasks/get, tasks/update and tasks/cancel): authenticate, rate-limit, audit.
   * Throw an RpcError to refuse; otherwise return what `run` returns. `run` takes the request
   * context the method runs with: `ctx`, or withContext(ctx, …) to hand it what the hook learned.
   */
  around?: <T>(
    method: string,
    ctx: RequestContext,
    run: (ctx: RequestContext) => Promise<T>,
  ) => Promise<T>;
};

/** A tool result whose text block is the structured content pretty-printed, for clients that read only content. */
export function structuredResult(data: Record<string, unknown>, isError = false): ToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(data, null, 2) }],
    structuredContent: data,
    isError,
  };
}

/** `{{ name }}` interpolation for prompt templates; unknown names are left as they are. */
export function interpolate(template: string, args: Record<string, string>): string {
  return template.replace(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : whole,
  );
}

// ---- the Skills extension (skills.ts serves them) ----

export type SkillFile = { path: string; text: string; mimeType?: string };

export type SkillDef = {
  name: string;
  description: string;
  /** The instructions: SKILL.md after its frontmatter (markdown). */
  body: string;
  /** Further frontmatter: `metadata` (string values), as the Agent Skills format allows. */
  metadata?: Record<string, string>;
  /** Files of the skill beside SKILL.md, by their path within it (`references/x.md`). */
  files?: SkillFile[];
};

// ---- the Tasks extension (tasks.ts runs them) ----

/** What a task's work may do while it runs. */
export type TaskControl = {
  /** Aborted when the client cancels the task. */
  signal: AbortSignal;
  /** Says how far the work is (the task's statusMessage; listeners hear it). */
  status(message: string): void;
  /** Asks the client; the task is input_required until every key is answered, then works on. */
  ask(requests: Record<string, InputRequest>): Promise<Record<string, InputResponse>>;
};

/**
 * What a handler returns to run its work as a task (when the client can follow one). With
 * `answerWithinMs`, work that completes that soon is answered as a plain result, no task shown.
 */
export class RunAsTask {
  constructor(
    readonly work: (task: TaskControl) => Promise<ToolResult>,
    readonly options: { answerWithinMs?: number } = {},
  ) {}
}
