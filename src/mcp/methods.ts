// The methods both protocol eras share, over a Surface: listing and calling tools, prompts,
// resources, templates and completion. Each era wraps them its own way (the legacy era in sessions;
// the 2026-07-28 era in per-request metadata, caching hints and resultType).
import type { EngineLogger, RequestContext } from './context.ts';
import { complete, getPrompt, readResource } from './content-methods.ts';
import type { InputRequired } from './input-required.ts';
import { ErrorCode, ErrorText, RpcError } from './jsonrpc.ts';
import { runTool } from './run-tool.ts';
import { frozenJson } from './wire.ts';
import type { Surface, ToolDef, ToolResult } from './surface.ts';
import { missingTasks, tasksDeclared, type RunAsTask } from './tasks.ts';

export const SHARED_METHODS = new Set([
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
]);

/** The answer to one shared method: its result, or InputRequired when the client must answer first. */
export async function serveShared(
  method: string,
  params: Record<string, unknown>,
  surface: Surface,
  ctx: RequestContext,
  logger: EngineLogger,
): Promise<unknown> {
  switch (method) {
    case 'tools/list':
      return { tools: listed(surface).tools };
    case 'tools/call':
      return callTool(params, surface, ctx, logger);
    case 'prompts/list':
      return { prompts: listed(surface).prompts };
    case 'prompts/get':
      return around(surface, ctx, (c) => getPrompt(params, surface, c));
    case 'resources/list':
      return { resources: listed(surface).resources };
    case 'resources/templates/list':
      return { resourceTemplates: listed(surface).templates };
    case 'resources/read':
      return around(surface, ctx, (c) => readResource(params, surface, c));
    case 'completion/complete':
      return around(surface, ctx, (c) => complete(params, surface, c));
    default:
      throw new RpcError(ErrorCode.MethodNotFound, ErrorText.unknownMethod(method));
  }
}

async function callTool(
  params: Record<string, unknown>,
  surface: Surface,
  ctx: RequestContext,
  logger: EngineLogger,
): Promise<ToolResult | InputRequired | RunAsTask> {
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || (args !== undefined && !isRecord(args))) {
    throw new RpcError(ErrorCode.InvalidParams, ErrorText.expectedNameArguments);
  }
  const tool = toolNamed(surface, name);
  // An unknown tool is a bad parameter since 2026-07-28; the older eras called it an unknown method.
  if (!tool)
    throw new RpcError(
      ctx.era === 'modern' ? ErrorCode.InvalidParams : ErrorCode.MethodNotFound,
      ErrorText.unknownTool(name),
    );
  if (tool.taskSupport === 'required' && !tasksDeclared(ctx))
    throw missingTasks(`The tool "${name}" runs only as a task: it`);
  return runTool(tool, (args as Record<string, unknown> | undefined) ?? {}, ctx, logger);
}

/** The surface's tool of that name (a plain loop: this is on every call's path). */
export function toolNamed(surface: Surface, name: unknown): ToolDef | undefined {
  for (const t of surface.tools) if (t.name === name) return t;
  return undefined;
}

/**
 * Runs a content method inside the surface's `around` hook, if it has one; the method runs with the
 * request context the hook hands it (the same request, perhaps with the application's context refined).
 */
export async function around<T>(
  surface: Surface,
  ctx: RequestContext,
  run: (ctx: RequestContext) => Promise<T>,
): Promise<T> {
  return surface.around ? surface.around(ctx.method, ctx, run) : run(ctx);
}

/** The same request with the application's context replaced by `context` (for an `around` hook). */
export function withContext(ctx: RequestContext, context: unknown): RequestContext {
  return Object.create(ctx, {
    context: { value: context, enumerable: true },
  }) as RequestContext;
}

type Listed = {
  from: unknown[][];
  sizes: number[];
  tools: unknown[];
  prompts: unknown[];
  resources: unknown[];
  templates: unknown[];
};
const listings = new WeakMap<Surface, Listed>();

/**
 * Tool lists already made, by what they are made of: surfaces that list the same tools (one server
 * per tenant, each with the same tools) share one list and its serialised text rather than each
 * holding its own (a tool list with its schemas is tens of kilobytes). Tools are the same when their
 * listed fields are the same strings and the same schema objects. At most MAX_SHARED_LISTS; emptied
 * when full.
 */
const sharedToolLists = new Map<string, unknown[]>();
const MAX_SHARED_LISTS = 64;
const objectIds = new WeakMap<object, number>();
let lastObjectId = 0;

/** A short text that is the same for the same string, number or object (by identity). */
function identityOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? '';
  let id = objectIds.get(value);
  if (id === undefined) objectIds.set(value, (id = ++lastObjectId));
  return `#${id}`;
}

function sharedToolList(tools: ToolDef[]): unknown[] {
  const key = tools
    .map((t) =>
      [t.name, t.title, t.description, t.inputSchema, t.outputSchema, t.annotations, t._meta]
        .map(identityOf)
        .join('\u0000'),
    )
    .join('\u0001');
  const known = sharedToolLists.get(key);
  if (known) return known;
  if (sharedToolLists.size >= MAX_SHARED_LISTS) sharedToolLists.clear();
  const list = frozenJson(tools.map(listedTool));
  sharedToolLists.set(key, list);
  return list;
}

/**
 * The public metadata of a surface's tools, prompts, resources and templates (recomputed when a list
 * is replaced), each list serialised once (frozenJson: the lists are never changed once made).
 */
function listed(surface: Surface): Listed {
  let l = listings.get(surface);
  const from = [surface.tools, surface.prompts, surface.resources, surface.templates];
  if (!l || from.some((list, i) => list !== l!.from[i] || list.length !== l!.sizes[i])) {
    l = {
      from,
      sizes: from.map((list) => list.length),
      tools: sharedToolList(surface.tools),
      prompts: frozenJson(
        surface.prompts.map(({ name, title, description, arguments: args }) => ({
          name,
          title,
          description,
          arguments: args,
        })),
      ),
      resources: frozenJson(
        surface.resources.map(({ uri, name, title, description, mimeType }) => ({
          uri,
          name,
          title,
          description,
          mimeType,
        })),
      ),
      templates: frozenJson(
        surface.templates.map(({ uriTemplate, name, title, description, mimeType }) => ({
          uriTemplate,
          name,
          title,
          description,
          mimeType,
        })),
      ),
    };
    listings.set(surface, l);
  }
  return l;
}

function listedTool(t: ToolDef) {
  return {
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: t.inputSchema,
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    ...(t.annotations ? { annotations: t.annotations } : {}),
    ...(t._meta ? { _meta: t._meta } : {}),
  };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
