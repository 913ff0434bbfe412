// How Hamlet's MCP surfaces run requests through the call pipeline: catalogue operations become
// tools, and the content methods (resources, prompts, completion, subscriptions) and the two-tool
// mode's `search` are wrapped in the same authenticate → rate-limit steps, and audited when they
// change something.
import type { Actor } from '../domain/actor.ts';
import {
  codeOfRpc,
  DOMAIN_ERROR_CODES,
  DomainError,
  ERROR_ANSWERS,
  type DomainErrorCode,
} from '../domain/errors.ts';
import type { Logger } from '../log.ts';
import type { InputResponse, RequestContext } from '../mcp/context.ts';
import { InputRequired } from '../mcp/input-required.ts';
import { withContext } from '../mcp/methods.ts';
import { ErrorCode, RpcError } from '../mcp/jsonrpc.ts';
import { errorResult } from '../mcp/run-tool.ts';
import type { ToolDef, ToolResult } from '../mcp/surface.ts';
import { RunAsTask, tasksDeclared } from '../mcp/tasks.ts';
import { withFailureShape } from '../mcp/tool-failure.ts';
import { describeIssues } from '../mcp/zod-tool.ts';
import {
  annotationsOf,
  jsonSchemasOf,
  type AnyOperation,
  type Credential,
  type Urls,
} from '../operations/operation.ts';
import type { Caller, Failure, Pipeline, RequestScope } from '../operations/pipeline.ts';
import type { Answer, Interaction, Question, Reporter } from '../operations/interaction.ts';
import type { Services } from '../services.ts';
import type { Community } from '../store/types.ts';

/** What the surfaces are built from. */
export type SurfaceDeps = {
  pipeline: Pipeline;
  services: Services;
  urls: Urls;
  version: string;
  logger: Logger;
};

/** A failed call's structuredContent: the error, and (once it reached the domain) its code. */
const FAILURE_SCHEMA = {
  type: 'object',
  description:
    'Returned with isError: true. `code` is absent when the arguments did not match the input schema.',
  properties: {
    error: { type: 'string', description: 'What went wrong and what to do about it.' },
    code: { type: 'string', enum: [...DOMAIN_ERROR_CODES] },
    retry_after_seconds: {
      type: 'integer',
      minimum: 1,
      description: 'With code "rate_limited" or "unavailable": seconds to wait before retrying.',
    },
    retry_after_ms: {
      type: 'integer',
      minimum: 1,
      description:
        'With code "unavailable" (the service cannot answer now, e.g. its database is restarting): milliseconds to wait before retrying the same call.',
    },
  },
  required: ['error'],
  additionalProperties: false,
} as const;

/** The caller of one MCP request: who, from where, what it can answer, where progress goes. */
export function callerOf(ctx: RequestContext, community: Community | null): Caller {
  const scope = ctx.context as RequestScope | undefined; // what the endpoint resolver handed in
  return {
    community,
    credential: ctx.credential,
    ip: ctx.clientIp,
    pathForm: scope?.pathForm,
    connector: scope?.connector,
    onAuthenticated: scope?.onAuthenticated,
    interaction: interactionOf(ctx),
    reporter: reporterOf(ctx),
  };
}

/** Questions become elicitations: asked when the client declared it can answer them. */
function interactionOf(ctx: RequestContext): Interaction {
  return {
    canAsk: ctx.canAsk('elicitation'),
    answer: (key) => elicitAnswer(ctx.inputResponses[key]),
  };
}

function elicitAnswer(r: InputResponse | undefined): Answer | undefined {
  if (!r || (r.action !== 'accept' && r.action !== 'decline' && r.action !== 'cancel'))
    return undefined;
  return {
    action: r.action,
    content:
      typeof r.content === 'object' && r.content !== null
        ? (r.content as Record<string, unknown>)
        : {},
  };
}

function reporterOf(ctx: RequestContext): Reporter {
  return {
    progress: (done, total, message) => ctx.progress(done, total, message),
    note: (level, message) => ctx.log(level, message, 'hamlet'),
  };
}

/** The questions an operation asked, as elicitation/create input requests. */
function askedOf(questions: Question[]): InputRequired {
  return new InputRequired(
    Object.fromEntries(
      questions.map((q) => [
        q.key,
        {
          method: 'elicitation/create' as const,
          params: {
            message: q.message,
            requestedSchema: { type: 'object', properties: q.fields, required: q.required },
          },
        },
      ]),
    ),
  );
}

/** A failure as a tool result: argument-schema failures carry `error` only, others their code too. */
export function failureResult(failure: Failure, tool: string): ToolResult {
  if (failure.stage === 'validate')
    return errorResult({ error: `Invalid arguments for tool "${tool}": ${failure.message}` });
  const structured: {
    error: string;
    code: DomainErrorCode;
    retry_after_seconds?: number;
    retry_after_ms?: number;
  } = { error: failure.message, code: failure.code };
  if (failure.retryAfterSeconds !== undefined)
    structured.retry_after_seconds = failure.retryAfterSeconds;
  if (failure.code === 'unavailable')
    structured.retry_after_ms = (failure.retryAfterSeconds ?? 1) * 1000;
  return errorResult(structured);
}

type ListedParts = Pick<ToolDef, 'inputSchema' | 'outputSchema' | 'annotations'>;
/**
 * What an operation's tool lists, made once per operation: every community's tool shares these
 * objects, so each community's server holds none of its own (and the engine shares the list).
 */
const listedParts = new WeakMap<AnyOperation, ListedParts>();

function listedPartsOf(op: AnyOperation): ListedParts {
  let parts = listedParts.get(op);
  if (!parts) {
    const schemas = jsonSchemasOf(op);
    parts = {
      inputSchema: schemas.input,
      outputSchema: withFailureShape(schemas.output, FAILURE_SCHEMA),
      annotations: annotationsOf(op),
    };
    listedParts.set(op, parts);
  }
  return parts;
}

/** A catalogue operation as an MCP tool: its arguments reach the pipeline unvalidated (auth first). */
export function operationTool(
  op: AnyOperation,
  deps: SurfaceDeps,
  community: Community | null,
): ToolDef {
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    ...listedPartsOf(op),
    checkOutput: (structured) => {
      const parsed = op.output.safeParse(structured);
      return parsed.success ? undefined : describeIssues(parsed.error);
    },
    ...(op.longRunning ? { taskSupport: 'optional' as const } : {}),
    handler: async (args, ctx) => {
      // Work that may take long runs as a task for a client that can follow one (Tasks extension).
      if (op.longRunning && tasksDeclared(ctx)) return asTask(op, deps, community, ctx, args);
      const outcome = await deps.pipeline.invoke(op, callerOf(ctx, community), args);
      if (outcome.ok) return { structuredContent: outcome.value };
      return outcome.stage === 'ask'
        ? askedOf(outcome.questions ?? [])
        : failureResult(outcome, op.name);
    },
  };
}

/**
 * An engine-level tool (the two-tool mode's `search`, a read) behind the pipeline: the caller
 * authenticates and is counted before its arguments are looked at.
 */
export function guardedTool(
  tool: ToolDef,
  deps: SurfaceDeps,
  community: Community | null,
  credential: Credential,
): ToolDef {
  return {
    ...tool,
    parseArguments: undefined,
    handler: async (args, ctx) => {
      const outcome = await deps.pipeline.guard(
        callerOf(ctx, community),
        { credential, action: `tool:${tool.name}`, what: 'This tool' },
        async () => {
          const checked = tool.parseArguments
            ? tool.parseArguments(args)
            : { ok: true as const, value: args };
          if (!checked.ok) return errorResult({ error: checked.error });
          return tool.handler(checked.value, ctx);
        },
      );
      return outcome.ok ? outcome.value : failureResult(outcome, tool.name);
    },
  };
}

const WHAT: Record<string, string> = {
  'resources/read': 'Reading this resource',
  'resources/subscribe': 'Subscribing to this resource',
  'resources/unsubscribe': 'Unsubscribing',
  'prompts/get': 'This prompt',
  'completion/complete': 'Completion',
  'skills/list': 'Listing skills',
  'skills/get': 'Reading a skill',
  'resources/directory/read': 'Listing a skill directory',
  'tasks/get': 'Reading a task',
  'tasks/update': 'Answering a task',
  'tasks/cancel': 'Cancelling a task',
};

/** The content methods that change something (a subscription, a task): audited as writes. */
const CHANGES = new Set([
  'resources/subscribe',
  'resources/unsubscribe',
  'tasks/update',
  'tasks/cancel',
]);

/** The name of a JSON-RPC error code in the engine's table. */
function rpcName(code: number): string | undefined {
  return (Object.keys(ErrorCode) as (keyof typeof ErrorCode)[]).find(
    (name) => ErrorCode[name] === code,
  );
}

/**
 * The `around` hook of a surface whose content methods need `credential`: each call goes through
 * the pipeline (its failures become JSON-RPC errors, the only answer these methods have), and the
 * handlers inside read the authenticated actor with actorOf(ctx).
 */
export function contentGuard(
  deps: SurfaceDeps,
  community: Community | null,
  credential: Credential,
) {
  return async <T>(
    method: string,
    ctx: RequestContext,
    run: (ctx: RequestContext) => Promise<T>,
  ): Promise<T> => {
    let protocolError: RpcError | undefined;
    const outcome = await deps.pipeline.guard(
      callerOf(ctx, community),
      {
        credential,
        action: `mcp:${method}`,
        what: WHAT[method] ?? 'This request',
        write: CHANGES.has(method),
      },
      async (actor) => {
        const scope = ctx.context as RequestScope | undefined;
        const guarded: GuardedScope = { ...scope, actor };
        try {
          return await run(withContext(ctx, guarded));
        } catch (err) {
          if (!(err instanceof RpcError)) throw err;
          protocolError = err; // the engine's own answer (unknown prompt, resource not found): kept as is
          throw new DomainError(codeOfRpc(rpcName(err.code)) ?? 'invalid_argument', err.message);
        }
      },
    );
    if (protocolError) throw protocolError;
    if (outcome.ok) return outcome.value;
    const data =
      outcome.retryAfterSeconds !== undefined
        ? outcome.code === 'unavailable'
          ? { retryAfterMs: outcome.retryAfterSeconds * 1000 }
          : { retryAfterSeconds: outcome.retryAfterSeconds }
        : undefined;
    throw new RpcError(ErrorCode[ERROR_ANSWERS[outcome.code].rpc], outcome.message, data);
  };
}

/**
 * A presented value as this request shows it: canonical community URLs turned into the path form
 * when the request came through it (resource and prompt texts are serialised from this).
 */
export function inRequestForm<T>(deps: SurfaceDeps, ctx: RequestContext, value: T): T {
  return (ctx.context as Partial<RequestScope> | undefined)?.pathForm
    ? deps.urls.inPathForm(value)
    : value;
}

/** What a content method's context carries inside contentGuard: the request scope and its actor. */
type GuardedScope = RequestScope & { actor: Actor };

/** The actor contentGuard authenticated for this request (handed in as the method's context). */
export function actorOf(ctx: RequestContext): Actor {
  const actor = (ctx.context as Partial<GuardedScope> | undefined)?.actor;
  if (!actor) throw new Error('A content method ran outside its surface guard.');
  return actor;
}

// ---- long-running operations as task work (MCP Tasks extension) ----
// The same pipeline call as a plain tools/call, run on after the request was answered with a task
// handle. What the operation reports becomes the task's status message; questions it asks make the
// task input_required until the client answers them through tasks/update, then the call runs again
// with the answers, as a multi round-trip request would.

/** Work that finishes this soon is answered at once, no task shown. */
const ANSWER_WITHIN_MS = 2_000;
/** Rounds of questions a task may ask before it gives up. */
const MAX_ROUNDS = 3;

function asTask(
  op: AnyOperation,
  deps: SurfaceDeps,
  community: Community | null,
  ctx: RequestContext,
  args: Record<string, unknown>,
): RunAsTask {
  return new RunAsTask(
    async (task): Promise<ToolResult> => {
      let answers: Record<string, InputResponse> = { ...ctx.inputResponses };
      for (let round = 0; ; round++) {
        const caller = {
          ...callerOf(ctx, community),
          interaction: {
            canAsk: ctx.canAsk('elicitation') && round < MAX_ROUNDS,
            answer: (key: string) => elicitAnswer(answers[key]),
          },
          reporter: {
            progress: async (done: number, total: number, message: string) =>
              task.status(`${message} (${done}/${total})`),
            note: async (_level: string, message: string) => task.status(message),
          },
        };
        const outcome = await deps.pipeline.invoke(op, caller, args);
        if (outcome.ok) return { structuredContent: outcome.value };
        if (outcome.stage !== 'ask') return failureResult(outcome, op.name);
        const asked = askedOf(outcome.questions ?? []);
        answers = { ...answers, ...(await task.ask(asked.requests)) };
      }
    },
    { answerWithinMs: ANSWER_WITHIN_MS },
  );
}
