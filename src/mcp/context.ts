// What a tool, prompt or resource handler learns about the request it serves, and what it may do
// while serving it (report progress, log, ask the client, give up its stream).
import type { JsonRpcId } from './jsonrpc.ts';
import type { SessionRecord } from './session-store.ts';

/** Where the engine reports its own problems (a pino logger fits). */
export type EngineLogger = { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type RequestContext = {
  requestId: JsonRpcId;
  method: string;
  protocolVersion: string;
  /** The key from `Authorization: Bearer …` or `X-API-Key`, if any. Never log it. */
  credential?: string;
  clientIp: string;
  /** Present when the client echoed a live Mcp-Session-Id. */
  session?: SessionRecord;
  /** Aborted when the client sends notifications/cancelled for this request. */
  signal: AbortSignal;
  /** `params._meta` of the request. */
  meta: Record<string, unknown>;
  /** notifications/progress, when the request carried a progressToken; otherwise nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** notifications/message, when the session's log level lets it through. */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** A server-to-client request (sampling, elicitation) over this request's stream. */
  requestClient(method: string, params: Record<string, unknown>, timeoutMs?: number): Promise<unknown>;
  /** Ends this request's SSE stream now; the result is kept for a resuming GET (SEP-1699). */
  closeStream(): void;
};
