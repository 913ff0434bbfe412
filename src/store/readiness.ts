// Readiness as /readyz reports it: the database takes writes (not only answers reads), and, with
// several instances over PostgreSQL, this instance's LISTEN connection is up (without it, streams
// held here miss what other instances announce). The database's answer is reused for a second, so
// a load balancer polling often costs one small write a second; concurrent checks share one probe.
import type { Store } from './repositories.ts';
import type { ListenerState } from './pg-channel.ts';

export type DatabaseState = 'ok' | 'unreachable' | 'not writable';

export type Readiness = { ready: boolean; database: DatabaseState; listener?: ListenerState };

export type ReadinessOptions = {
  store: Store;
  /** The LISTEN connection's state, where there is one (PostgreSQL). */
  listener?: () => ListenerState;
  /** How long a database answer is reused (default 1000 ms). */
  cacheMs?: number;
  /** A probe slower than this counts as unreachable (default 2000 ms). */
  timeoutMs?: number;
  /** Told when the database's state changes away from ok, with the error. */
  onProblem?: (state: DatabaseState, err: unknown) => void;
};

export function readinessCheck(o: ReadinessOptions): () => Promise<Readiness> {
  const cacheMs = o.cacheMs ?? 1_000;
  const timeoutMs = o.timeoutMs ?? 2_000;
  let cached: { at: number; state: Promise<DatabaseState> } | undefined;
  let last: DatabaseState = 'ok';

  async function probe(): Promise<DatabaseState> {
    let state: DatabaseState = 'ok';
    let problem: unknown;
    try {
      await within(o.store.probeWrite(), timeoutMs);
    } catch (err) {
      problem = err;
      // Which of the two: no answer at all, or answers but refuses the write.
      state = await within(o.store.ping(), timeoutMs).then(
        () => 'not writable' as const,
        () => 'unreachable' as const,
      );
    }
    if (state !== 'ok' && state !== last) o.onProblem?.(state, problem);
    last = state;
    return state;
  }

  return async () => {
    const now = Date.now();
    if (!cached || now - cached.at >= cacheMs) cached = { at: now, state: probe() };
    const database = await cached.state;
    const listener = o.listener?.();
    const ready = database === 'ok' && (listener === undefined || listener === 'listening');
    return listener === undefined ? { ready, database } : { ready, database, listener };
  };
}

/** `work`, or a rejection once `ms` passed (the work itself goes on and is observed). */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}
