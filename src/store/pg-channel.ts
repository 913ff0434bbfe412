// A string channel between Hamlet instances over PostgreSQL LISTEN/NOTIFY: one dedicated connection
// listens, NOTIFY goes through a small pool. Used to share MCP session traffic (src/mcp/bus.ts)
// between instances behind one database. The listening connection is kept up for as long as the
// channel is open: whenever it drops (the server restarted, the backend was terminated, the network
// failed) or cannot be made, it is tried again with a capped backoff, for ever; after each reconnect
// the `onReconnect` handlers hear that notifications may have been missed meanwhile. A URL listing
// several hosts connects to the one not in recovery (LISTEN and NOTIFY work on the primary only),
// looked for again whenever a connection is lost, so the channel follows a failover.
import pg from 'pg';
import { observePoolErrors } from './pg-pools.ts';
import { isConnectionError, PgHosts } from './pg-hosts.ts';

export type ListenerState = 'connecting' | 'listening' | 'reconnecting' | 'closed';

export type PgChannel = {
  publish(payload: string): Promise<void>;
  /** Adds a handler; resolves once the channel first listens (or is closed). */
  listen(handler: (payload: string) => void): Promise<void>;
  /** Called after the listening connection came back: notifications sent meanwhile were missed. */
  onReconnect(handler: () => void): void;
  /** Whether the listening connection is up now. */
  state(): ListenerState;
  close(): Promise<void>;
};

export type PgChannelOptions = {
  /** Told about every lost connection and failed attempt (with the next delay). */
  onProblem?: (problem: string) => void;
  /** The first retry's delay; it doubles after each failed attempt up to `maxRetryMs`. */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** How long one attempt to connect may take. */
  connectTimeoutMs?: number;
};

export function openPgChannel(
  url: string,
  channel = 'hamlet_mcp',
  options: PgChannelOptions = {},
): PgChannel {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name "${channel}"`);
  const onProblem = options.onProblem ?? (() => {});
  const minRetryMs = options.minRetryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 2_000;
  const connectionTimeoutMillis = options.connectTimeoutMs ?? 5_000;
  const hosts = new PgHosts(url, connectionTimeoutMillis);
  // NOTIFY's pool, made for the primary's URL (again after a failover).
  let notifier: { url: string; pool: pg.Pool } | undefined;
  const notifyPool = async (): Promise<pg.Pool> => {
    const primary = await hosts.primary();
    if (closed()) throw new Error('The channel is closed.');
    if (notifier?.url === primary) return notifier.pool;
    void notifier?.pool.end().catch(() => undefined);
    const pool = new pg.Pool({
      connectionString: primary,
      max: 2,
      connectionTimeoutMillis,
      keepAlive: true,
      application_name: 'hamlet notify',
    });
    observePoolErrors(pool, (err) => onProblem(`NOTIFY connection lost (${err.message})`));
    notifier = { url: primary, pool };
    return pool;
  };
  const handlers: Array<(payload: string) => void> = [];
  const reconnectHandlers: Array<() => void> = [];
  let state: ListenerState = 'connecting';
  // A function, not a comparison, since close() may change the state across any await below.
  const closed = () => state === 'closed';
  let listener: pg.Client | undefined;
  let wake: (() => void) | undefined;
  let firstListening: (() => void) | undefined;
  const listening = new Promise<void>((resolve) => (firstListening = resolve));

  /**
   * Connects and LISTENs; resolves with the client and a promise of its loss (an error, or its
   * end: observed from the start, so no error of this connection goes unheard), or rejects.
   */
  async function connect(): Promise<{ client: pg.Client; gone: Promise<string> }> {
    const client = new pg.Client({
      connectionString: await hosts.primary(),
      connectionTimeoutMillis,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // Which instance's connection this is, in pg_stat_activity.
      application_name: `hamlet listen ${process.pid}`,
    });
    const gone = new Promise<string>((resolve) => {
      client.on('error', (err) => resolve(err.message));
      client.on('end', () => resolve('ended'));
    });
    client.on('notification', (msg) => {
      if (msg.channel !== channel || msg.payload === undefined) return;
      for (const h of handlers) {
        try {
          h(msg.payload);
        } catch (err) {
          onProblem(`a channel handler failed: ${errorText(err)}`);
        }
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      return { client, gone };
    } catch (err) {
      release(client);
      hosts.forget();
      throw err;
    }
  }

  /** Ends a client without waiting: one whose connection already ended may never say so again. */
  function release(client: pg.Client): void {
    client.end().catch(() => undefined);
  }

  async function pause(ms: number): Promise<void> {
    // ±20% jitter, so instances that lost the database together do not return in lockstep.
    const jittered = Math.round(ms * (0.8 + Math.random() * 0.4));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, jittered);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wake = undefined;
  }

  /** Keeps one listening connection until the channel is closed. */
  async function keepListening(): Promise<void> {
    let delay = minRetryMs;
    let connectedBefore = false;
    while (!closed()) {
      let connected: Awaited<ReturnType<typeof connect>>;
      try {
        connected = await connect();
      } catch (err) {
        if (closed()) break;
        onProblem(`LISTEN connection failed (${errorText(err)}); retrying in ${delay} ms`);
        await pause(delay);
        delay = Math.min(delay * 2, maxRetryMs);
        continue;
      }
      if (closed()) {
        release(connected.client);
        break;
      }
      listener = connected.client;
      state = 'listening';
      delay = minRetryMs;
      firstListening?.();
      if (connectedBefore) {
        for (const h of reconnectHandlers) {
          try {
            h();
          } catch (err) {
            onProblem(`a reconnect handler failed: ${errorText(err)}`);
          }
        }
      }
      connectedBefore = true;
      const why = await connected.gone;
      listener = undefined;
      release(connected.client);
      hosts.forget();
      if (closed()) break;
      // The first attempt is at once (a terminated backend's server is still up); failures back off.
      state = 'reconnecting';
      onProblem(`LISTEN connection lost (${why}); reconnecting`);
    }
    firstListening?.();
  }

  let running: Promise<void> | undefined;
  const start = () =>
    (running ??= keepListening().catch((err: unknown) =>
      onProblem(`LISTEN loop stopped: ${errorText(err)}`),
    ));

  return {
    async publish(payload) {
      try {
        await (await notifyPool()).query('select pg_notify($1, $2)', [channel, payload]);
      } catch (err) {
        if (isConnectionError(err)) hosts.forget();
        throw err;
      }
    },
    async listen(handler) {
      handlers.push(handler);
      void start();
      return listening;
    },
    onReconnect(handler) {
      reconnectHandlers.push(handler);
    },
    state: () => state,
    async close() {
      state = 'closed';
      wake?.();
      const l = listener;
      listener = undefined;
      await l?.end().catch(() => undefined);
      await running;
      await notifier?.pool.end().catch(() => undefined);
    },
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
