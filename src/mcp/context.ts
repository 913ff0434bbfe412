// What a tool, prompt or resource handler learns about the request it serves, and what it may do
// while serving it (report progress, log, ask the client for input, give up its stream). The same
// context serves both protocol eras; where they differ (how the client is asked, where progress and
// logs go) the engine hides it.
import type { JsonRpcId } from './jsonrpc.ts';
import type { SessionRecord } from './session-store.ts';

/** Where the engine reports its own problems (a pino logger fits). */
export type EngineLogger = {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** legacy: 2025-11-25 and older (initialize, sessions); modern: 2026-07-28 (per-request `_meta`). */
export type Era = 'legacy' | 'modern';

/** The client features a server may ask for input through (MCP's input requests). */
export type InputCapability = 'elicitation' | 'sampling' | 'roots';

/** One answer to an input request, as the client sent it (an ElicitResult, CreateMessageResult, …). */
export type InputResponse = Record<string, unknown>;

export type RequestContext = {
  requestId: JsonRpcId;
  method: string;
  era: Era;
  protocolVersion: string;
  /** The key from `Authorization: Bearer …` or `X-API-Key`, if any. Never log it. */
  credential?: string;
  clientIp: string;
  /**
   * What the application's front door made of this request (who, which address form, …), carried
   * from the transport untouched, as the MCP SDK hands handlers `authInfo`. Opaque to the engine.
   */
  context?: unknown;
  /** Present when the client echoed a live Mcp-Session-Id (legacy era). */
  session?: SessionRecord;
  /** What the client declared it can do: at initialize (legacy) or in this request's `_meta` (modern). */
  clientCapabilities: Record<string, unknown>;
  /** Aborted when the client cancels the request (notifications/cancelled, or closing its stream). */
  signal: AbortSignal;
  /** `params._meta` of the request. */
  meta: Record<string, unknown>;
  /** The client's answers to this request's earlier input requests, by their keys (empty on a first try). */
  inputResponses: Record<string, InputResponse>;
  /** What the handler kept when it asked (InputRequired's state), verified to be its own. */
  state?: unknown;
  /** Whether the client can answer input requests of this kind during this request. */
  canAsk(capability: InputCapability): boolean;
  /** Refuses the request (-32021) when the client did not declare `capability`. */
  requireCapability(capability: string): void;
  /** notifications/progress, when the request carried a progressToken; otherwise nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** notifications/message, when the client asked for logs at this level (session level or `_meta`). */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** A server-to-client request (sampling, elicitation) over this request's stream (legacy era only). */
  requestClient(
    method: string,
    params: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<unknown>;
  /** Ends this request's SSE stream now; the result is kept for a resuming GET (legacy era, SEP-1699). */
  closeStream(): void;
};
