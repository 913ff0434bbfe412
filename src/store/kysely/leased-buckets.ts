// Shared token buckets without a database round trip per request: an instance takes a lease (a few
// tokens at once) from the shared bucket and spends it here, one request at a time, taking the next
// lease in the background when half of it is gone. The rules:
// - Leases are sized by the bucket: a sixteenth of its capacity, at most MAX_LEASE tokens. A bucket
//   too small for a lease of 2 (sign-ups, sign-in failures, small per-key budgets) and every give-back
//   (negative cost) or cost larger than a lease go to the shared bucket directly, exactly as before.
// - The shared bucket never grants more than it holds: a lease is all or none. Once it holds less
//   than a lease, requests pay there one by one (exactly) until a lease fits again.
// - Overshoot is bounded: over any window a client gets at most the capacity plus one lease per
//   instance (tokens leased before the window and spent in it). It may be refused early by at most
//   one lease per other instance (tokens another instance leased and has not spent); a lease unused
//   for IDLE_MS goes back to the shared bucket.
// - Leases are bounded at MAX_LEASES buckets; beyond that new buckets are charged directly.
import type { TakeResult } from './rate-buckets.ts';

/** What leases are taken from: PostgresRateBuckets (one statement per take). */
export type TokenSource = {
  take(bucket: string, capacity: number, cost?: number, windowMs?: number): Promise<TakeResult>;
};

const MAX_LEASE = 64;
const LEASE_SHARE = 1 / 16;
const IDLE_MS = 5_000;
const SWEEP_EVERY_MS = 1_000;
const MAX_LEASES = 10_000;

type Lease = {
  tokens: number;
  /** What the shared bucket held after the last lease was taken (for RateLimit headers). */
  shared: number;
  capacity: number;
  windowMs: number;
  usedAt: number;
  /** Until when requests pay the shared bucket one by one (it held less than a lease). */
  directUntil: number;
  /** The lease being taken, resolving whether it was granted. */
  pending?: Promise<boolean>;
};

/** The tokens one lease holds for a bucket of `capacity` (below 2: no leases, every take is shared). */
export function leaseSize(capacity: number): number {
  return Math.min(MAX_LEASE, Math.floor(capacity * LEASE_SHARE));
}

export class LeasedBuckets {
  private readonly leases = new Map<string, Lease>();
  private lastSweep: number;

  constructor(
    private readonly shared: TokenSource,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSweep = now();
  }

  async take(bucket: string, capacity: number, cost = 1, windowMs = 60_000): Promise<TakeResult> {
    const size = leaseSize(capacity);
    const now = this.now();
    this.sweepNowAndThen(now);
    if (size < 2 || cost <= 0 || cost > size)
      return this.shared.take(bucket, capacity, cost, windowMs);
    let lease = this.leases.get(bucket);
    if (!lease || lease.capacity !== capacity || lease.windowMs !== windowMs) {
      if (lease || this.leases.size >= MAX_LEASES)
        return this.shared.take(bucket, capacity, cost, windowMs);
      lease = { tokens: 0, shared: capacity, capacity, windowMs, usedAt: now, directUntil: 0 };
      this.leases.set(bucket, lease);
    }
    lease.usedAt = now;
    for (;;) {
      if (lease.tokens >= cost) {
        lease.tokens -= cost;
        if (lease.tokens < size / 2 && !lease.pending && lease.directUntil <= now)
          this.fill(bucket, lease, size).catch(() => undefined); // the next request sees it fail
        return { ok: true, remaining: Math.floor(lease.shared + lease.tokens) };
      }
      if (!lease.pending && lease.directUntil > now) break;
      if (!(await (lease.pending ?? this.fill(bucket, lease, size)))) break;
    }
    return this.shared.take(bucket, capacity, cost, windowMs);
  }

  /** Takes one lease of `size` tokens; refused, requests pay one by one until it would fit. */
  private async fill(bucket: string, lease: Lease, size: number): Promise<boolean> {
    const pending = this.shared
      .take(bucket, lease.capacity, size, lease.windowMs)
      .then((r) => {
        if (r.ok) {
          lease.tokens += size;
          lease.shared = r.remaining;
        } else lease.directUntil = this.now() + r.retryAfterMs;
        return r.ok;
      })
      .finally(() => {
        lease.pending = undefined;
      });
    lease.pending = pending;
    return pending;
  }

  /** Leases idle for IDLE_MS are dropped, their unspent tokens given back to the shared bucket. */
  private sweepNowAndThen(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [bucket, lease] of this.leases) {
      if (now - lease.usedAt < IDLE_MS || lease.pending) continue;
      this.leases.delete(bucket);
      const unspent = Math.floor(lease.tokens);
      if (unspent > 0)
        this.shared.take(bucket, lease.capacity, -unspent, lease.windowMs).catch(() => undefined);
    }
  }
}
