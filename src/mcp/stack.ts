// Wires the MCP layers together: session store → engine → stream hub → HTTP transport, plus the
// idle-session sweeper. The app (src/main.ts) and test fixtures both build their endpoint with this.
import type { McpBus } from './bus.ts';
import { McpEngine, type EngineLogger } from './engine.ts';
import { McpHttpTransport, type TransportOptions } from './http-transport.ts';
import type { SessionStore } from './session-store.ts';
import { StreamHub } from './stream-hub.ts';

export type McpStackOptions = Omit<TransportOptions, 'engine' | 'hub'> & {
  sessions: SessionStore;
  logger: EngineLogger;
  sessionIdleMs: number;
  /** Shares session traffic with other instances over the same database (default: none). */
  bus?: McpBus;
};

export type McpStack = { engine: McpEngine; hub: StreamHub; transport: McpHttpTransport; stop(): void };

export function createMcpStack(options: McpStackOptions): McpStack {
  const engine = new McpEngine(options.sessions, options.logger, { bus: options.bus });
  const hub = new StreamHub(options.sessions, options.bus);
  engine.setOutbox(hub.toSession);
  const transport = new McpHttpTransport({ ...options, engine, hub });
  const sweeper = setInterval(async () => {
    try {
      const now = Date.now();
      // A session with an open stream is in use even if it sends nothing.
      for (const id of hub.liveSessionIds()) await options.sessions.touch(id, now);
      await options.sessions.sweep(now - options.sessionIdleMs);
    } catch (err) {
      options.logger.error({ err }, 'session sweep failed');
    }
  }, Math.min(60_000, Math.max(1_000, options.sessionIdleMs / 4)));
  sweeper.unref();
  return { engine, hub, transport, stop: () => clearInterval(sweeper) };
}
