// The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663), 2026-07-28 era only: a tool whose
// handler answers RunAsTask is answered with a task handle (resultType "task") when the request's
// client capabilities declare the extension, and its work runs on; the client polls tasks/get
// (status, then the result or error inlined), answers what the work asks through tasks/update, and
// may cancel it (tasks/cancel, an empty ack). A client that did not declare the extension gets the
// work's result inline, or -32021 for a tool that can only run as a task. Status changes reach the
// subscriptions/listen streams that named the task (notifications/tasks). A task belongs to the
// endpoint (scope) and caller (a hash of the credential) that started it: anyone else is told the
// task does not exist. Tasks live in the memory of the instance running them (the client's Mcp-Name
// header names the task so a router can keep its requests on that instance); a finished task is
// kept for its ttlMs.
import { randomBytes } from 'node:crypto';
import type { InputResponse, RequestContext } from './context.ts';
import type { InputRequest } from './input-required.ts';
import { ErrorCode, RpcError, type JsonRpcErrorObject } from './jsonrpc.ts';
import { RunAsTask, type TaskControl, type ToolResult } from './surface.ts';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

export { RunAsTask, type TaskControl } from './surface.ts';

/** Whether this request's client declared the extension (never in the legacy era, where it is undefined). */
export function tasksDeclared(ctx: Pick<RequestContext, 'era' | 'clientCapabilities'>): boolean {
  if (ctx.era !== 'modern') return false;
  const ext = ctx.clientCapabilities.extensions;
  return isRecord(ext) && isRecord(ext[TASKS_EXTENSION]);
}

/** -32021: this needs a client that declares the Tasks extension. */
export function missingTasks(what: string): RpcError {
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `${what} needs the client capability extensions["${TASKS_EXTENSION}"] (protocol 2026-07-28).`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/**
 * Runs RunAsTask work within the request, for a client that cannot follow a task: asking goes
 * through the request's own way of reaching the client (a legacy session), or fails.
 */
export async function runInline(run: RunAsTask, ctx: RequestContext): Promise<ToolResult> {
  return run.work({
    signal: ctx.signal,
    status: (message) => void ctx.progress(0, undefined, message).catch(() => undefined),
    ask: async (requests) => {
      const answers: Record<string, InputResponse> = {};
      for (const [key, r] of Object.entries(requests)) {
        const a = await ctx.requestClient(r.method, r.params).catch(() => {
          throw missingTasks('Asking the client while the work runs');
        });
        answers[key] = (isRecord(a) ? a : {}) as InputResponse;
      }
      return answers;
    },
  });
}

/** A task's wire form: the Task fields, and what its status carries (inputRequests, result, error). */
export type DetailedTask = {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
  inputRequests?: Record<string, InputRequest>;
  result?: Record<string, unknown>;
  error?: JsonRpcErrorObject;
};

type Waiting = {
  keys: Map<string, string>;
  answers: Record<string, InputResponse>;
  done: (a: Record<string, InputResponse>) => void;
};

type TaskRecord = {
  scope: string;
  owner: string;
  controller: AbortController;
  task: DetailedTask;
  /** The client's questions by the key it answers with (unique over the task's life). */
  pending: Map<string, { request: InputRequest; waiting: Waiting }>;
  expiresAt: number;
  /** Settles when the work has ended, however it ended. */
  ended: Promise<void>;
};

export type TaskOptions = {
  /** How long a task is kept from its creation (default 1 hour). */
  ttlMs?: number;
  /** The polling interval suggested to clients (default 500 ms). */
  pollIntervalMs?: number;
  /** Live (not yet finished) tasks one caller may have on one endpoint (default 20). */
  perOwner?: number;
};

/** The tasks this instance runs, and where their status changes go. */
export class TaskRegistry {
  private readonly tasks = new Map<string, TaskRecord>();
  private seq = 0;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly perOwner: number;

  constructor(
    private readonly changed: (scope: string, task: DetailedTask) => void,
    options: TaskOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.perOwner = options.perOwner ?? 20;
  }

  /** Starts `run`; the task exists (tasks/get finds it) before this returns. */
  start(scope: string, owner: string, run: RunAsTask): DetailedTask {
    this.sweep();
    let live = 0;
    for (const r of this.tasks.values())
      if (r.scope === scope && r.owner === owner && !TERMINAL.has(r.task.status)) live++;
    if (live >= this.perOwner)
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `At most ${this.perOwner} unfinished tasks per caller: wait for one to finish or cancel one.`,
      );
    const at = new Date(this.now()).toISOString();
    const record: TaskRecord = {
      scope,
      owner,
      controller: new AbortController(),
      pending: new Map(),
      expiresAt: this.now() + this.ttlMs,
      ended: Promise.resolve(),
      task: {
        taskId: randomBytes(16).toString('base64url'),
        status: 'working',
        createdAt: at,
        lastUpdatedAt: at,
        ttlMs: this.ttlMs,
        pollIntervalMs: this.pollIntervalMs,
      },
    };
    this.tasks.set(record.task.taskId, record);
    const control: TaskControl = {
      signal: record.controller.signal,
      status: (message) => this.set(record, { statusMessage: message }),
      ask: (requests) => this.ask(record, requests),
    };
    record.ended = Promise.resolve()
      .then(async () => {
        // Cancelled (or expired) before it began: the work never starts.
        if (record.controller.signal.aborted) throw new Error('cancelled');
        return run.work(control);
      })
      .then(
        (result) => this.finish(record, { status: 'completed', result: { ...result } }),
        (err: unknown) =>
          this.finish(record, {
            status: 'failed',
            error:
              err instanceof RpcError
                ? err.toObject()
                : { code: ErrorCode.InternalError, message: 'Internal error.' },
            statusMessage: err instanceof RpcError ? err.message : 'The work failed unexpectedly.',
          }),
      );
    return { ...record.task };
  }

  /**
   * The task's result when it completed within `ms` (the task is then dropped: the client never
   * saw it); undefined when it is still going, or ended otherwise.
   */
  async completedWithin(taskId: string, ms: number): Promise<Record<string, unknown> | undefined> {
    const r = this.tasks.get(taskId);
    if (!r || ms <= 0) return undefined;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([r.ended, new Promise((done) => (timer = setTimeout(done, ms)))]);
    clearTimeout(timer);
    if (r.task.status !== 'completed') return undefined;
    this.tasks.delete(taskId);
    return r.task.result;
  }

  /** The caller's task as tasks/get shows it, or -32602 when there is none (or it is another's). */
  get(scope: string, owner: string, taskId: unknown): DetailedTask {
    const r = this.find(scope, owner, taskId);
    const task: DetailedTask = { ...r.task };
    if (r.task.status === 'input_required')
      task.inputRequests = Object.fromEntries(
        [...r.pending].map(([key, p]) => [key, p.request] as const),
      );
    return task;
  }

  /** tasks/update: hands the answers to the questions they name; others are ignored. */
  update(scope: string, owner: string, taskId: unknown, responses: unknown): void {
    const r = this.find(scope, owner, taskId);
    if (!isRecord(responses))
      throw new RpcError(ErrorCode.InvalidParams, 'tasks/update needs params.inputResponses.');
    for (const [key, answer] of Object.entries(responses)) {
      const p = r.pending.get(key);
      if (!p || !isRecord(answer)) continue;
      r.pending.delete(key);
      const w = p.waiting;
      w.answers[w.keys.get(key)!] = answer as InputResponse;
      w.keys.delete(key);
      if (w.keys.size === 0) w.done(w.answers);
    }
    if (r.task.status === 'input_required' && r.pending.size === 0)
      this.set(r, { status: 'working' });
  }

  /** tasks/cancel: an unfinished task is cancelled; a finished one stays as it is. */
  cancel(scope: string, owner: string, taskId: unknown): void {
    const r = this.find(scope, owner, taskId);
    if (TERMINAL.has(r.task.status)) return;
    r.pending.clear();
    this.finish(r, { status: 'cancelled', statusMessage: 'Cancelled by the client.' });
    r.controller.abort(new Error('cancelled'));
  }

  /** Whether the caller has this task (a listen stream may name only its own). */
  has(scope: string, owner: string, taskId: string): boolean {
    const r = this.tasks.get(taskId);
    return !!r && r.scope === scope && r.owner === owner;
  }

  private find(scope: string, owner: string, taskId: unknown): TaskRecord {
    if (typeof taskId !== 'string')
      throw new RpcError(ErrorCode.InvalidParams, 'Expected params.taskId (a string).');
    const r = this.tasks.get(taskId);
    if (!r || r.scope !== scope || r.owner !== owner || r.expiresAt <= this.now())
      throw new RpcError(ErrorCode.InvalidParams, `Unknown task: ${taskId}`, { taskId });
    return r;
  }

  private async ask(
    r: TaskRecord,
    requests: Record<string, InputRequest>,
  ): Promise<Record<string, InputResponse>> {
    if (r.controller.signal.aborted) return Promise.reject(new Error('cancelled'));
    return new Promise((done, fail) => {
      const waiting: Waiting = { keys: new Map(), answers: {}, done };
      for (const [key, request] of Object.entries(requests)) {
        const wire = `${++this.seq}-${key}`;
        waiting.keys.set(wire, key);
        r.pending.set(wire, { request, waiting });
      }
      r.controller.signal.addEventListener('abort', () => fail(new Error('cancelled')), {
        once: true,
      });
      if (waiting.keys.size === 0) done({});
      else this.set(r, { status: 'input_required' });
    });
  }

  private finish(r: TaskRecord, change: Partial<DetailedTask>): void {
    if (TERMINAL.has(r.task.status)) return;
    this.set(r, change);
  }

  private set(r: TaskRecord, change: Partial<DetailedTask>): void {
    if (TERMINAL.has(r.task.status)) return;
    Object.assign(r.task, change, { lastUpdatedAt: new Date(this.now()).toISOString() });
    try {
      this.changed(r.scope, this.get(r.scope, r.owner, r.task.taskId));
    } catch {
      // A listener's failure is not the task's.
    }
  }

  /** Drops tasks past their ttlMs (cancelling any still running). */
  private sweep(): void {
    const now = this.now();
    for (const [id, r] of this.tasks)
      if (r.expiresAt <= now) {
        r.controller.abort(new Error('expired'));
        this.tasks.delete(id);
      }
  }

  /** Cancels every unfinished task (the server is stopping). */
  stop(): void {
    for (const r of this.tasks.values()) r.controller.abort(new Error('stopping'));
    this.tasks.clear();
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
