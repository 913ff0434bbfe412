// The RequestContext the engine hands to handlers, for either era: where its messages go (its
// Delivery), what the client declared, the answers to earlier input requests. Also the legacy
// era's way of getting input: the engine asks the client over the session and runs the handler again.
import type { Era, InputCapability, InputResponse, LogLevel, RequestContext } from './context.ts';
import { LOG_LEVELS } from './context.ts';
import { CAPABILITY_OF, InputRequired } from './input-required.ts';
import {
  ErrorCode,
  RpcError,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from './jsonrpc.ts';
import type { SessionRecord } from './session-store.ts';

/** Where a request's own messages go while it runs, and how it reaches the client. */
export type Delivery = {
  /** Sends a notification (or, legacy, a request) tied to this request; false when it cannot reach the client. */
  send(message: JsonRpcMessage): Promise<boolean>;
  /** A server-to-client request and its answer (legacy era: over the session). */
  request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<unknown>;
  /** Gives up the request's stream (legacy era). */
  close(): void;
};

/**
 * A request's cancellation. Its AbortSignal is made only when a handler looks at it: most requests
 * finish without anyone asking, and an AbortController per request is a measurable cost.
 */
export class Cancellation {
  private controller: AbortController | undefined;
  private why: unknown;
  aborted = false;

  /** `watcher.watch` starts listening for the client going away; it runs when the signal is first asked for. */
  constructor(private readonly watcher?: { watch(c: Cancellation): void }) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.why);
      else this.watcher?.watch(this);
    }
    return this.controller.signal;
  }

  cancel(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.why = reason;
    this.controller?.abort(reason);
  }
}

/** What the transport learned about a request, whatever its era. */
export type RequestFacts = Pick<
  RequestContext,
  | 'era'
  | 'protocolVersion'
  | 'credential'
  | 'clientIp'
  | 'context'
  | 'session'
  | 'clientCapabilities'
> & {
  /** The lowest level of notifications/message the client wants for this request; none: no logs. */
  logLevel?: LogLevel;
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A request's context as a class: its methods live on the prototype, not as per-request closures. */
export class RequestCtx implements RequestContext {
  readonly requestId: JsonRpcId;
  readonly method: string;
  readonly era: Era;
  readonly protocolVersion: string;
  readonly credential?: string;
  readonly clientIp: string;
  readonly context?: unknown;
  readonly session?: SessionRecord;
  readonly clientCapabilities: Record<string, unknown>;
  readonly meta: Record<string, unknown>;
  inputResponses: Record<string, InputResponse> = {};
  state?: unknown;
  /** Cleared when asking the client failed once: the handler then goes on without asking. */
  askingWorks = true;
  constructor(
    request: JsonRpcRequest,
    private readonly facts: RequestFacts,
    private readonly delivery: Delivery,
    private readonly cancellation: Cancellation,
  ) {
    this.requestId = request.id;
    this.method = request.method;
    this.era = facts.era;
    this.protocolVersion = facts.protocolVersion;
    this.credential = facts.credential;
    this.clientIp = facts.clientIp;
    this.context = facts.context;
    this.session = facts.session;
    this.clientCapabilities = facts.clientCapabilities;
    this.meta = isRecord(request.params?._meta) ? request.params._meta : {};
  }
  get signal(): AbortSignal {
    return this.cancellation.signal;
  }
  canAsk(capability: InputCapability): boolean {
    if (!this.askingWorks || !isRecord(this.clientCapabilities[capability])) return false;
    // The legacy era asks over the session; without one there is no way back to the client.
    return this.era === 'modern' || this.session !== undefined;
  }
  requireCapability(capability: string): void {
    if (!isRecord(this.clientCapabilities[capability])) {
      throw new RpcError(
        ErrorCode.MissingRequiredClientCapability,
        `This request needs the client capability "${capability}": declare it in io.modelcontextprotocol/clientCapabilities.`,
        {
          requiredCapabilities: { [capability]: {} },
        },
      );
    }
  }
  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.meta.progressToken;
    if (typeof progressToken !== 'string' && typeof progressToken !== 'number') return;
    const params: Record<string, unknown> = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message) params.message = message;
    await this.send({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }
  async log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = this.facts.logLevel;
    if (!threshold || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold)) return;
    const params: Record<string, unknown> = { level, data };
    if (logger) params.logger = logger;
    await this.send({ jsonrpc: '2.0', method: 'notifications/message', params });
  }
  async requestClient(
    method: string,
    params: Record<string, unknown>,
    timeoutMs = 60_000,
  ): Promise<unknown> {
    if (this.cancellation.aborted) return Promise.reject(new Error('Request cancelled.'));
    return this.delivery.request(method, params, timeoutMs);
  }
  closeStream(): void {
    this.delivery.close();
  }
  private async send(message: JsonRpcMessage): Promise<boolean> {
    return this.cancellation.aborted ? Promise.resolve(false) : this.delivery.send(message);
  }
}

/** At most this many question-and-answer rounds in one legacy request. */
const MAX_ROUNDS = 4;
/** How long the legacy era waits for the client to answer one input request. */
const ANSWER_TIMEOUT_MS = 120_000;

/**
 * Runs `work` in the legacy era: when it returns InputRequired, the engine asks the client over the
 * session (only what the client declared it can answer), then runs it again with the answers. If the
 * client cannot answer, `work` runs once more with asking off and must manage without; what it then
 * still cannot do without input comes back as InputRequired for the caller to refuse.
 */
export async function askOverSession<T>(
  ctx: RequestCtx,
  work: () => Promise<T | InputRequired>,
): Promise<T | InputRequired> {
  for (let round = 0; ; round++) {
    const outcome = await work();
    if (!(outcome instanceof InputRequired) || !ctx.askingWorks) return outcome;
    const entries = Object.entries(outcome.requests);
    const answerable =
      round < MAX_ROUNDS && entries.every(([, r]) => ctx.canAsk(CAPABILITY_OF[r.method]));
    const answers = answerable
      ? await Promise.all(
          entries.map(([key, r]) =>
            ctx.requestClient(r.method, r.params, ANSWER_TIMEOUT_MS).then((a) => [key, a] as const),
          ),
        ).catch(() => undefined)
      : undefined;
    if (answers && answers.every(([, a]) => isRecord(a))) {
      ctx.inputResponses = Object.fromEntries(answers) as Record<string, InputResponse>;
      ctx.state = outcome.state;
    } else {
      ctx.askingWorks = false;
      ctx.inputResponses = {};
      ctx.state = undefined;
    }
  }
}
