// The content methods of a Surface, as plain functions over it: prompts/get (with required-argument
// checks and interpolation done by the prompt), resources/read (static resources and URI templates)
// and completion/complete. The engine calls them inside the surface's `around` hook.
import type { RequestContext } from './context.ts';
import { InputRequired } from './input-required.ts';
import { ErrorCode, RpcError } from './jsonrpc.ts';
import type { ResourceTemplateDef, Surface } from './surface.ts';
import { compileTemplate } from './uri-template.ts';

const COMPLETION_LIMIT = 100;

export async function getPrompt(
  params: Record<string, unknown>,
  surface: Surface,
  ctx: RequestContext,
) {
  const name = params.name;
  if (typeof name !== 'string')
    throw new RpcError(ErrorCode.InvalidParams, 'Expected { name, arguments }.');
  const prompt = surface.prompts.find((p) => p.name === name);
  if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  const args = stringRecord(params.arguments);
  const missing = (prompt.arguments ?? [])
    .filter((a) => a.required && !args[a.name])
    .map((a) => a.name);
  if (missing.length) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Missing required argument${missing.length > 1 ? 's' : ''} for prompt "${name}": ${missing.join(', ')}`,
    );
  }
  const rendered = await prompt.render(args, ctx);
  if (rendered instanceof InputRequired) return rendered;
  return {
    ...((rendered.description ?? prompt.description)
      ? { description: rendered.description ?? prompt.description }
      : {}),
    messages: rendered.messages,
  };
}

export async function readResource(
  params: Record<string, unknown>,
  surface: Surface,
  ctx: RequestContext,
) {
  const uri = params.uri;
  if (typeof uri !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'Expected { uri }.');
  const found = findResource(surface, uri);
  if (!found) throw new RpcError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
  const contents =
    found.kind === 'static'
      ? await found.def.read(ctx)
      : await found.def.read(uri, found.variables, ctx);
  if (contents instanceof InputRequired) return contents;
  return { contents };
}

/** How long a read of `uri` stays fresh (the 2026-07-28 era's ttlMs hint). */
export function resourceTtl(surface: Surface, uri: unknown): number {
  return (typeof uri === 'string' ? findResource(surface, uri)?.def.ttlMs : undefined) ?? 0;
}

export async function complete(
  params: Record<string, unknown>,
  surface: Surface,
  ctx: RequestContext,
) {
  const ref = params.ref;
  const argument = params.argument;
  if (!isRecord(ref) || !isRecord(argument) || typeof argument.name !== 'string') {
    throw new RpcError(ErrorCode.InvalidParams, 'Expected { ref, argument: { name, value } }.');
  }
  const value = typeof argument.value === 'string' ? argument.value : '';
  const context = isRecord(params.context) ? stringRecord(params.context.arguments) : {};
  let values: string[] = [];
  if (ref.type === 'ref/prompt') {
    const prompt = surface.prompts.find((p) => p.name === ref.name);
    if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name)}`);
    values = (await prompt.complete?.(argument.name, value, context, ctx)) ?? [];
  } else if (ref.type === 'ref/resource') {
    const template = surface.templates.find((t) => t.uriTemplate === ref.uri);
    if (!template)
      throw new RpcError(ErrorCode.InvalidParams, `Unknown resource template: ${String(ref.uri)}`);
    values = (await template.complete?.(argument.name, value, context, ctx)) ?? [];
  } else {
    throw new RpcError(ErrorCode.InvalidParams, 'ref.type must be "ref/prompt" or "ref/resource".');
  }
  return {
    completion: {
      values: values.slice(0, COMPLETION_LIMIT),
      total: values.length,
      hasMore: values.length > COMPLETION_LIMIT,
    },
  };
}

type FoundResource =
  | { kind: 'static'; def: Surface['resources'][number] }
  | { kind: 'template'; def: ResourceTemplateDef; variables: Record<string, string> };

const compiled = new WeakMap<ResourceTemplateDef, ReturnType<typeof compileTemplate>>();

export function findResource(surface: Surface, uri: string): FoundResource | undefined {
  const def = surface.resources.find((r) => r.uri === uri);
  if (def) return { kind: 'static', def };
  for (const template of surface.templates) {
    let c = compiled.get(template);
    if (!c) compiled.set(template, (c = compileTemplate(template.uriTemplate)));
    const variables = c.match(uri);
    if (variables) return { kind: 'template', def: template, variables };
  }
  return undefined;
}

export function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(v))
    for (const [k, val] of Object.entries(v))
      if (val !== undefined && val !== null) out[k] = String(val);
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
