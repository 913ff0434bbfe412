// Shared token buckets without a database statement per request: each instance counts what its
// requests spend from a bucket in memory, and settles every bucket's count with the shared bucket
// (PostgreSQL) in one statement once a second, learning each bucket's level as it does. The rules:
// - A request is admitted here when the bucket's level as last seen, refilled since, less what this
//   instance spent since, holds its cost, and this instance's unsettled spending stays within the
//   bucket's allowance: a thirty-second of its capacity. A request that would go past the
//   allowance settles its bucket first (one statement: only a client faster than an allowance a
//   second does that, nearly twice its budget's pace; at its pace a client never does).
// - The tolerance: each instance spends at most one allowance the others do not know of yet, so
//   over any window a client gets at most the capacity, plus the refill, plus one allowance per
//   instance (three instances, 300 a minute: at most 300 + refill + 3 × 9). What it took beyond
//   the bucket is owed: the shared level goes below zero and refills from there, so the rate holds
//   on average. Nothing is refused early: an instance refuses by what the shared bucket said.
// - A bucket whose allowance would be under 2 (capacity under 64: sign-ups, small budgets), a cost
//   larger than the allowance (a large batch), and give-backs to buckets not counted here go to the
//   shared bucket directly, one statement each, exactly.
// - At most MAX_COUNTED buckets are counted (beyond that new ones are charged directly); a bucket
//   with nothing unsettled that has refilled to full (it carries nothing) is forgotten.
import type { Spent, TakeResult } from './rate-buckets.ts';

/** What the counts are settled with: PostgresRateBuckets. */
export type TokenSource = {
  take(bucket: string, capacity: number, cost?: number, windowMs?: number): Promise<TakeResult>;
  settle(entries: Spent[]): Promise<Map<string, number>>;
};

const ALLOWANCE_SHARE = 1 / 32;
export const SETTLE_EVERY_MS = 1_000;
const MAX_COUNTED = 50_000;
/** Buckets per settling statement. */
const SETTLE_BATCH = 1_000;

type Count = {
  capacity: number;
  windowMs: number;
  /** The shared bucket's level as last seen (at seenAt): full for a bucket not settled yet. */
  level: number;
  seenAt: number;
  /** Spent here, not sent yet. */
  spent: number;
  /** Sent in the settling under way. */
  sending: number;
  settling?: Promise<void>;
};

/** The tokens an instance may spend from a bucket of `capacity` before settling (under 2: none). */
export function allowanceOf(capacity: number): number {
  return Math.floor(capacity * ALLOWANCE_SHARE);
}

export type CountedOptions = {
  now?: () => number;
  /** How often every bucket's count is settled (default SETTLE_EVERY_MS). */
  settleEveryMs?: number;
  /** Told when a settling failed (the counts are kept and sent again). */
  onError?: (err: unknown) => void;
};

export class CountedBuckets {
  private readonly counts = new Map<string, Count>();
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;
  private settlingAll: Promise<void> | undefined;

  constructor(
    private readonly shared: TokenSource,
    private readonly options: CountedOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.settleAll(), options.settleEveryMs ?? SETTLE_EVERY_MS);
    this.timer.unref();
  }

  async take(bucket: string, capacity: number, cost = 1, windowMs = 60_000): Promise<TakeResult> {
    const allowance = allowanceOf(capacity);
    let count = this.counts.get(bucket);
    if (count && (count.capacity !== capacity || count.windowMs !== windowMs)) count = undefined;
    else if (!count && allowance >= 2 && cost > 0 && this.counts.size < MAX_COUNTED) {
      count = { capacity, windowMs, level: capacity, seenAt: this.now(), spent: 0, sending: 0 };
      this.counts.set(bucket, count);
    }
    if (!count || cost > allowance) return this.shared.take(bucket, capacity, cost, windowMs);
    if (cost <= 0) {
      count.spent += cost;
      return { ok: true, remaining: Math.floor(this.available(count)) };
    }
    for (let round = 0; round < 3; round++) {
      const available = this.available(count);
      if (available < cost)
        return {
          ok: false,
          retryAfterMs: Math.max(1, Math.ceil(((cost - available) * windowMs) / capacity)),
        };
      if (count.spent + count.sending + cost <= allowance) {
        count.spent += cost;
        return { ok: true, remaining: Math.floor(available - cost) };
      }
      await this.settle([[bucket, count]]);
    }
    return this.shared.take(bucket, capacity, cost, windowMs);
  }

  /** Settles what is left and stops the clock (the instance is closing). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.settleAll();
  }

  /** The shared level as last seen, refilled since, less what was spent here since. */
  private available(c: Count): number {
    const refilled = c.level + ((this.now() - c.seenAt) * c.capacity) / c.windowMs;
    return Math.min(c.capacity, refilled) - c.spent - c.sending;
  }

  /** Every bucket with something unsettled, in batches; forgets the buckets that carry nothing. */
  private async settleAll(): Promise<void> {
    if (this.settlingAll) return this.settlingAll;
    const run = async () => {
      const due: [string, Count][] = [];
      for (const [bucket, c] of this.counts) {
        if (c.settling) continue;
        if (c.spent !== 0) due.push([bucket, c]);
        else if (!c.sending && this.available(c) >= c.capacity) this.counts.delete(bucket);
      }
      for (let i = 0; i < due.length; i += SETTLE_BATCH)
        await this.settle(due.slice(i, i + SETTLE_BATCH)).catch((err: unknown) =>
          this.options.onError?.(err),
        );
    };
    this.settlingAll = run().finally(() => (this.settlingAll = undefined));
    return this.settlingAll;
  }

  /**
   * Sends what `batch` spent (waiting instead for a settling already under way); on failure the
   * counts are kept, to be sent again, and the error thrown.
   */
  private async settle(batch: [string, Count][]): Promise<void> {
    const waits: Promise<void>[] = [];
    const sent: [string, Count][] = [];
    for (const [bucket, c] of batch) {
      if (c.settling) waits.push(c.settling);
      else if (c.spent !== 0) sent.push([bucket, c]);
    }
    if (sent.length) {
      for (const [, c] of sent) [c.sending, c.spent] = [c.spent, 0];
      const settling = this.shared
        .settle(
          sent.map(([bucket, c]) => ({
            bucket,
            capacity: c.capacity,
            windowMs: c.windowMs,
            spent: c.sending,
          })),
        )
        .then(
          (levels) => {
            const now = this.now();
            for (const [bucket, c] of sent) {
              const level = levels.get(bucket);
              if (level === undefined) c.spent += c.sending;
              else [c.level, c.seenAt] = [level, now];
              c.sending = 0;
            }
          },
          (err: unknown) => {
            for (const [, c] of sent) [c.spent, c.sending] = [c.spent + c.sending, 0];
            throw err;
          },
        )
        .finally(() => {
          for (const [, c] of sent) if (c.settling === settling) c.settling = undefined;
        });
      for (const [, c] of sent) c.settling = settling;
      waits.push(settling);
    }
    await Promise.all(waits);
  }
}
