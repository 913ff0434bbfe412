// How instances of Hamlet that share one database tell each other about MCP session traffic: an
// event was logged on a stream someone else may hold open, a client answered a server-to-client
// request that another instance is waiting for, a request running elsewhere was cancelled, a session
// was deleted, a resource changed (for the 2026-era listen streams each instance holds). Messages are
// hints; the session store stays the source of truth. When the transport comes back after an outage,
// the local subscribers hear `resync`: whatever other instances said meanwhile was missed, and each
// re-synchronises what it holds from the store (or tells its clients that things may have changed).
import { randomUUID } from 'node:crypto';
import type { JsonRpcId, JsonRpcResponse } from './jsonrpc.ts';

export type BusMessage =
  | { t: 'event'; session: string; stream: string; final: boolean }
  | { t: 'response'; session: string; message: JsonRpcResponse }
  | { t: 'cancel'; session: string; requestId: JsonRpcId; reason?: string }
  | { t: 'closed'; session: string }
  | { t: 'updated'; scope: string; uri: string }
  /** Local only, never published: the transport reconnected, messages may have been missed. */
  | { t: 'resync' };

export interface McpBus {
  publish(message: BusMessage): void;
  subscribe(handler: (message: BusMessage) => void): void;
}

/** A single instance: nobody else to tell. */
export const localBus: McpBus = { publish() {}, subscribe() {} };

/** A transport that carries strings between instances (e.g. PostgreSQL LISTEN/NOTIFY). */
export type StringChannel = {
  publish(payload: string): Promise<void>;
  listen(handler: (payload: string) => void): Promise<void>;
  /** Called after the channel reconnected (messages sent while it was down were lost). */
  onReconnect?(handler: () => void): void;
};

/** PostgreSQL caps a NOTIFY payload at 8000 bytes; larger messages are dropped with a warning. */
const MAX_PAYLOAD = 7900;

export function channelBus(
  channel: StringChannel,
  onProblem: (problem: string) => void = () => {},
): McpBus {
  const origin = randomUUID();
  const handlers: Array<(m: BusMessage) => void> = [];
  const deliver = (message: BusMessage) => {
    for (const h of handlers) {
      try {
        h(message);
      } catch (err) {
        onProblem(`bus handler failed on ${message.t}: ${String(err)}`);
      }
    }
  };
  void channel
    .listen((payload) => {
      let parsed: BusMessage & { o?: string };
      try {
        parsed = JSON.parse(payload);
      } catch {
        return;
      }
      if (parsed.o === origin) return; // our own message, already handled locally
      if (parsed.t === 'resync') return; // never from another instance
      deliver(parsed);
    })
    .catch((err: unknown) => onProblem(`bus listen failed: ${String(err)}`));
  channel.onReconnect?.(() => deliver({ t: 'resync' }));
  return {
    publish(message) {
      if (message.t === 'resync') return;
      const payload = JSON.stringify({ ...message, o: origin });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
        onProblem(`bus message of ${Buffer.byteLength(payload)} bytes dropped (${message.t})`);
        return;
      }
      channel
        .publish(payload)
        .catch((err: unknown) => onProblem(`bus publish failed: ${String(err)}`));
    },
    subscribe(handler) {
      handlers.push(handler);
    },
  };
}
