// A restart of PostgreSQL (`pg_ctl restart`, a failover, a short stop) refuses new connections for a
// few seconds. A query arriving then waits for the server, up to the connect timeout, instead of
// failing at once: connecting is retried (50 ms, doubling, at most 500 ms apart) while the error
// says the server is away, and no statement was sent, so nothing runs twice. Past the deadline the
// last error goes on (an outage, answered 503 with Retry-After by the faces).
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { isConnectionError } from './pg-hosts.ts';

/** Retries `attempt` while it fails with a connection error, for at most `waitMs` in all. */
export async function patiently<T>(
  attempt: () => Promise<T>,
  waitMs: number,
  onRetry?: () => void,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  let delay = 50;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!isConnectionError(err) || Date.now() + delay >= deadline) throw err;
      onRetry?.();
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 500);
    }
  }
}

/** `pool` as Kysely's PostgresDialect takes it, its connections had patiently. */
export function patientPool(pool: pg.Pool, waitMs: number): PostgresPool {
  return {
    connect: async () =>
      patiently(async () => (await pool.connect()) as unknown as PostgresPoolClient, waitMs),
    end: async () => pool.end(),
  };
}
