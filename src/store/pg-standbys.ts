// The hot standbys reads may go to, and how far behind each is, polled in the background (never per
// request). Every poll reads the primary's WAL position (a sample: "at local time t, the primary
// had written up to P") and then each standby's replay position R: a standby has replayed every
// write acknowledged before the newest sample with P <= R, so its lag is the time since that
// sample. A standby takes reads only while it answers, is in recovery, lags at most `maxLagMs`,
// and has replayed:
//  - the floor: what the primary had written when this instance started, or when it may have
//    missed other instances' writes (its LISTEN connection came back), until a sample says so;
//  - for a statement reading tables the replica-routing store itself wrote lately (background
//    work of search, a read operation that wrote after all), the time of that write.
// A statement that fails on a standby marks it down until a poll finds it well again.
import type { ServerPool } from './pg-pools.ts';

export type StandbyState = 'ready' | 'lagging' | 'down';

export type StandbyOptions = {
  /** A standby further behind than this takes no reads. */
  maxLagMs: number;
  /** How often positions are polled (default 200 ms). */
  pollMs?: number;
  /** Whether standbys may take reads at all now (false: this instance may miss others' writes). */
  mayRead?: () => boolean;
  /** Told when a standby becomes ready, lagging or down (`why`: the lag, or the error). */
  onState?: (standby: ServerPool, state: StandbyState, why: string) => void;
};

/** A WAL position ('16/B374D848') as a number. */
export function lsnOf(text: string | null | undefined): bigint {
  const m = /^([0-9A-F]+)\/([0-9A-F]+)$/i.exec(text ?? '');
  return m ? (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`) : 0n;
}

class Standby {
  healthy = false;
  polling = false;
  replay = 0n;
  /** Local time of the newest primary sample this standby has replayed (-Infinity: none). */
  caughtUpAt = -Infinity;
  state: StandbyState | undefined;
  constructor(readonly server: ServerPool) {}
}

export class Standbys {
  private readonly list: Standby[];
  private samples: Array<{ at: number; lsn: bigint }> = [];
  /** Reads need this replay position; undefined while the next sample taken after floorAfter is awaited. */
  private floor: bigint | undefined;
  private floorAfter = performance.now();
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private readonly pollMs: number;
  /** How long a poll waits for one server's answer. */
  private readonly answerMs: number;

  constructor(
    servers: ServerPool[],
    /** The primary's WAL position now ('select pg_current_wal_lsn()'). */
    private readonly primaryLsn: () => Promise<bigint>,
    private readonly options: StandbyOptions,
  ) {
    this.list = servers.map((s) => new Standby(s));
    this.pollMs = options.pollMs ?? 200;
    this.answerMs = Math.max(1_000, 5 * this.pollMs);
  }

  /** Starts polling; reads wait until the standbys replayed what the primary holds now (the schema). */
  start(): void {
    this.raiseFloorToNow();
    const tick = () => {
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
        if (this.timer) this.timer = setTimeout(tick, this.pollMs).unref();
      });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling;
    await Promise.all(this.list.map(async (s) => s.server.end()));
  }

  /**
   * A standby a plain read may go to now (taking turns), or undefined: read on the primary.
   * `after`: the read needs a write made at that local time (caughtUpEverywhere's clock).
   */
  pick(after = -Infinity): ServerPool | undefined {
    const now = performance.now();
    const floor = this.floor;
    if (floor === undefined || this.options.mayRead?.() === false) return undefined;
    for (let i = 0; i < this.list.length; i++) {
      const s = this.list[(this.next + i) % this.list.length]!;
      if (
        s.healthy &&
        now - s.caughtUpAt <= this.options.maxLagMs &&
        s.caughtUpAt >= after &&
        s.replay >= floor
      ) {
        this.next = (this.next + i + 1) % this.list.length;
        return s.server;
      }
    }
    return undefined;
  }

  /**
   * The replay position every standby that answers has reached: a write at or below it is seen
   * wherever a read goes. undefined when none answers (reads are on the primary then anyway).
   */
  replayedEverywhere(): bigint | undefined {
    let min: bigint | undefined;
    for (const s of this.list)
      if (s.healthy && (min === undefined || s.replay < min)) min = s.replay;
    return min;
  }

  /** The local time of the newest sample every standby that answers has replayed (-Infinity: none). */
  caughtUpEverywhere(): number {
    let min: number | undefined;
    for (const s of this.list)
      if (s.healthy && (min === undefined || s.caughtUpAt < min)) min = s.caughtUpAt;
    return min ?? -Infinity;
  }

  /** A statement failed on this standby with a connection error: no reads until a poll says so. */
  failed(server: ServerPool, err: unknown): void {
    const s = this.list.find((x) => x.server === server);
    if (!s) return;
    s.healthy = false;
    this.report(s, 'down', err instanceof Error ? err.message : String(err));
  }

  /** Writes may have been missed (or not yet known): reads wait for what the primary holds now. */
  raiseFloorToNow(): void {
    this.floor = undefined;
    this.floorAfter = performance.now();
  }

  /** Reads wait until every standby replayed `lsn` (a recent writer this instance forgot). */
  raiseFloor(lsn: bigint): void {
    if (this.floor !== undefined && lsn > this.floor) this.floor = lsn;
  }

  private async poll(): Promise<void> {
    const at = performance.now();
    // The primary not answering (in time): no sample, so the standbys' lag grows until it does.
    const lsn = await within(this.primaryLsn(), this.answerMs).catch(() => undefined);
    if (lsn !== undefined) {
      this.samples.push({ at, lsn });
      if (this.floor === undefined && at >= this.floorAfter) this.floor = lsn;
    }
    await Promise.all(this.list.map(async (s) => this.pollStandby(s)));
    // Older samples cannot make a standby young enough to take reads.
    const keepFrom = performance.now() - this.options.maxLagMs - 2 * this.pollMs;
    while (this.samples.length > 1 && this.samples[0]!.at < keepFrom) this.samples.shift();
  }

  private async pollStandby(s: Standby): Promise<void> {
    if (!s.polling) {
      s.polling = true;
      await within(
        this.ask(s).finally(() => (s.polling = false)),
        this.answerMs,
      );
    }
    if (s.polling) {
      // Its answer has not come back (the standby hangs): it takes no reads meanwhile.
      s.healthy = false;
      this.report(s, 'down', 'does not answer');
    }
  }

  private async ask(s: Standby): Promise<void> {
    try {
      const r = await s.server.pool.query<{ lsn: string | null; recovery: boolean }>(
        'select pg_last_wal_replay_lsn()::text as lsn, pg_is_in_recovery() as recovery',
      );
      const row = r.rows[0]!;
      if (!row.recovery) throw new Error('it is not in recovery (promoted?)');
      s.replay = lsnOf(row.lsn);
      for (let i = this.samples.length - 1; i >= 0; i--) {
        const sample = this.samples[i]!;
        if (sample.lsn <= s.replay) {
          if (sample.at > s.caughtUpAt) s.caughtUpAt = sample.at;
          break;
        }
      }
      s.healthy = true;
      const lag = performance.now() - s.caughtUpAt;
      if (lag <= this.options.maxLagMs) this.report(s, 'ready', `${Math.round(lag)} ms behind`);
      else this.report(s, 'lagging', `more than ${this.options.maxLagMs} ms behind`);
    } catch (err) {
      s.healthy = false;
      this.report(s, 'down', err instanceof Error ? err.message : String(err));
    }
  }

  private report(s: Standby, state: StandbyState, why: string): void {
    if (s.state === state) return;
    s.state = state;
    this.options.onState?.(s.server, state, why);
  }
}

/** `promise`'s value, or undefined once `ms` passed first (the promise goes on unobserved but handled). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
