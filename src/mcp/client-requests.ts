// Server-to-client requests of the legacy era (sampling/createMessage, elicitation/create,
// roots/list sent over a session's stream) and their answers, which may arrive at this instance or,
// through the bus, from another one.
import type { McpBus } from './bus.ts';
import { CAPABILITY_OF } from './input-required.ts';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from './jsonrpc.ts';
import type { SessionRecord } from './session-store.ts';

type Pending = { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout };

/** The capability a client must have declared to be sent each kind of request. */
const CAPABILITY: Record<string, string | undefined> = CAPABILITY_OF;

export function inflightKey(sessionId: string, id: JsonRpcId): string {
  return `${sessionId}\u0000${typeof id}:${id}`;
}

export class ClientRequests {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;

  constructor(private readonly bus?: McpBus) {}

  /** Sends `method` to the client of `session` with `send` and waits for its answer. */
  async ask(
    session: SessionRecord | undefined,
    send: (m: JsonRpcMessage) => Promise<boolean>,
    signal: AbortSignal,
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<unknown> {
    if (!session)
      return Promise.reject(
        new Error('Asking the client needs a session: the client must keep its Mcp-Session-Id.'),
      );
    const capability = CAPABILITY[method];
    if (capability && !session.clientCapabilities[capability]) {
      return Promise.reject(
        new Error(`The client did not declare the "${capability}" capability.`),
      );
    }
    const id: JsonRpcId = `srv-${this.nextId++}`;
    const key = inflightKey(session.id, id);
    return new Promise((resolve, reject) => {
      const settle = (err?: Error) => {
        clearTimeout(timer);
        this.pending.delete(key);
        if (err) reject(err);
      };
      const timer = setTimeout(
        () => settle(new Error(`The client did not answer ${method} within ${timeoutMs} ms.`)),
        timeoutMs,
      );
      this.pending.set(key, { resolve, reject, timer });
      signal.addEventListener('abort', () => settle(new Error('Request cancelled.')), {
        once: true,
      });
      send({ jsonrpc: '2.0', id, method, params }).then(
        (sent) => {
          if (!sent)
            settle(
              new Error(
                'There is no stream to reach the client on: accept text/event-stream or open a GET stream.',
              ),
            );
        },
        (err: unknown) => settle(err instanceof Error ? err : new Error(String(err))),
      );
    });
  }

  /** A client's answer arrived here: settle it if we wait for it, else tell the other instances. */
  answer(sessionId: string, message: JsonRpcResponse): void {
    if (!this.settle(sessionId, message))
      this.bus?.publish({ t: 'response', session: sessionId, message });
  }

  /** Settles a pending request of this process; false when it is not ours. */
  settle(sessionId: string, message: JsonRpcResponse): boolean {
    const key = inflightKey(sessionId, message.id ?? '');
    const pending = this.pending.get(key);
    if (!pending) return false;
    this.pending.delete(key);
    clearTimeout(pending.timer);
    if ('error' in message) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
    return true;
  }
}
