// A string channel between Hamlet instances over PostgreSQL LISTEN/NOTIFY: one dedicated connection
// listens (and reconnects with backoff if it drops), NOTIFY goes through a small pool. Used to
// share MCP session traffic (src/mcp/bus.ts) between instances behind one database.
import pg from 'pg';

export type PgChannel = {
  publish(payload: string): Promise<void>;
  listen(handler: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
};

export function openPgChannel(
  url: string,
  channel = 'hamlet_mcp',
  onProblem: (problem: string) => void = () => {},
): PgChannel {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name "${channel}"`);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined);
  const handlers: Array<(payload: string) => void> = [];
  let listener: pg.Client | undefined;
  let closed = false;
  let started: Promise<void> | undefined;
  let retryMs = 250;

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined)
        for (const h of handlers) h(msg.payload);
    });
    const reconnect = (why: string) => {
      if (closed || listener !== client) return;
      listener = undefined;
      onProblem(`LISTEN connection lost (${why}); reconnecting in ${retryMs} ms`);
      setTimeout(
        () => void connect().catch((err: unknown) => onProblem(`reconnect failed: ${String(err)}`)),
        retryMs,
      ).unref();
      retryMs = Math.min(retryMs * 2, 10_000);
    };
    client.on('error', (err) => reconnect(err.message));
    client.on('end', () => reconnect('ended'));
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    listener = client;
    retryMs = 250;
  }

  return {
    async publish(payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(handler) {
      handlers.push(handler);
      started ??= connect();
      return started;
    },
    async close() {
      closed = true;
      const l = listener;
      listener = undefined;
      await l?.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
