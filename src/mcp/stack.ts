// Wires the MCP layers together: session store → engine → stream hub → HTTP transport, plus the
// idle-session sweeper. The app (src/main.ts) and test fixtures both build their endpoint with this.
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { McpBus } from './bus.ts';
import { McpEngine, type EngineLogger } from './engine.ts';
import { McpHttpTransport, type TransportOptions } from './http-transport.ts';
import type { SessionCaps, SessionStore } from './session-store.ts';
import { StreamHub } from './stream-hub.ts';
import { StreamLimits, type StreamCaps } from './stream-limits.ts';

export type McpStackOptions = Omit<TransportOptions, 'engine' | 'hub' | 'streamLimits'> & {
  sessions: SessionStore;
  logger: EngineLogger;
  sessionIdleMs: number;
  /** Shares session traffic with other instances over the same database (default: none). */
  bus?: McpBus;
  sessionCaps?: SessionCaps;
  streamCaps?: StreamCaps;
};

export type McpStack = {
  engine: McpEngine;
  hub: StreamHub;
  transport: McpHttpTransport;
  /** The open event streams, counted per client address and session. */
  streams: StreamLimits;
  stop(): void;
};

/** Sessions dropped per sweep step; requests run between steps, so a large sweep never stalls them. */
export const SWEEP_BATCH = 200;

export function createMcpStack(options: McpStackOptions): McpStack {
  const engine = new McpEngine(options.sessions, options.logger, {
    bus: options.bus,
    sessionCaps: options.sessionCaps,
    unavailable: options.unavailable,
  });
  const hub = new StreamHub(options.sessions, options.bus);
  engine.setOutbox(hub.toSession);
  const streams = new StreamLimits(options.streamCaps);
  const transport = new McpHttpTransport({
    // A tenth of the idle time, at most a minute: a session in use writes at most once a minute.
    touchEveryMs: Math.min(60_000, options.sessionIdleMs / 10),
    ...options,
    engine,
    hub,
    streamLimits: streams,
  });
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      const now = Date.now();
      // A session with an open stream is in use even if it sends nothing.
      const live = [...hub.liveSessionIds()];
      if (live.length) await options.sessions.touch(live, now);
      while (
        (await options.sessions.sweep(now - options.sessionIdleMs, SWEEP_BATCH)) === SWEEP_BATCH
      )
        await yieldToRequests();
    } catch (err) {
      options.logger.error({ err }, 'session sweep failed');
    } finally {
      sweeping = false;
    }
  };
  const sweeper = setInterval(
    () => void sweep(),
    Math.min(60_000, Math.max(1_000, options.sessionIdleMs / 4)),
  );
  sweeper.unref();
  return {
    engine,
    hub,
    transport,
    streams,
    stop: () => {
      clearInterval(sweeper);
      transport.modern.closeAll();
      engine.tasks.stop();
    },
  };
}
