// Rate limits per key and per IP: token buckets (capacity = the per-minute limit, refilled
// continuously). In memory behind the RateLimiter interface; a shared (database or Redis) limiter can
// replace it for many instances without touching callers.
import { DomainError } from '../errors.ts';
import { systemClock, type Clock } from './auth.ts';

/** DomainError('rate_limited') that also carries the wait, for HTTP 429 + Retry-After. */
export class RateLimitedError extends DomainError {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super('rate_limited', message);
    this.name = 'RateLimitedError';
  }
}

export type TakeResult = { ok: true; remaining: number } | { ok: false; retryAfterMs: number };

export interface RateLimiter {
  /**
   * Takes `cost` tokens (default 1) from `bucket`, all or none. The bucket holds `capacity` tokens and
   * refills that many per `windowMs` (default one minute).
   */
  take(bucket: string, capacity: number, cost?: number, windowMs?: number): TakeResult;
}

type Bucket = { tokens: number; at: number };

export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly clock: Clock = systemClock, private readonly maxBuckets = 100_000) {}

  take(bucket: string, perMinute: number, cost = 1, windowMs = 60_000): TakeResult {
    const now = this.clock().getTime();
    const ratePerMs = perMinute / windowMs;
    let b = this.buckets.get(bucket);
    if (b) {
      b.tokens = Math.min(perMinute, b.tokens + (now - b.at) * ratePerMs);
      b.at = now;
      this.buckets.delete(bucket); // re-insert: the Map's order is least recently used first
    } else {
      b = { tokens: perMinute, at: now };
      if (this.buckets.size >= this.maxBuckets) this.evict(now, ratePerMs, perMinute);
    }
    this.buckets.set(bucket, b);
    if (b.tokens >= cost) {
      b.tokens -= cost;
      return { ok: true, remaining: Math.floor(b.tokens) };
    }
    // More than a full bucket can never be paid at once: wait for a full bucket, then ask for less.
    return { ok: false, retryAfterMs: Math.ceil((Math.min(cost, perMinute) - b.tokens) / ratePerMs) };
  }

  private evict(now: number, ratePerMs: number, capacity: number): void {
    // Drop full buckets (they carry no state), else the least recently used ones.
    for (const [k, v] of this.buckets) {
      if (v.tokens + (now - v.at) * ratePerMs >= capacity) this.buckets.delete(k);
    }
    const excess = this.buckets.size - Math.floor(this.maxBuckets * 0.9);
    let i = 0;
    for (const k of this.buckets.keys()) {
      if (i++ >= excess) break;
      this.buckets.delete(k);
    }
  }
}

export type RateLimitSettings = {
  perKeyPerMinute: number;
  perIpPerMinute: number;
  /** New accounts per client address per hour (sign-up is open to anyone). */
  signUpsPerIpPerHour?: number;
};

/** Password guesses: per account and per address, in a quarter of an hour. */
const SIGN_IN_ATTEMPTS = { perAccount: 10, perIp: 50, windowMs: 15 * 60_000 } as const;

export class RateLimits {
  constructor(
    private readonly settings: RateLimitSettings,
    private readonly limiter: RateLimiter = new TokenBucketLimiter(),
  ) {}

  /** Per credential: pass the key's id (never the key, nor its shared display prefix). */
  checkKey(keyId: string): void {
    this.check(`key:${keyId}`, this.settings.perKeyPerMinute, 'this key');
  }

  /** Per client address; `cost` units at once (a JSON-RPC batch pays one per message). */
  checkIp(ip: string, cost = 1): void {
    this.check(`ip:${ip}`, this.settings.perIpPerMinute, 'this IP address', cost);
  }

  /** One account created from `ip`: at most signUpsPerIpPerHour (default 10) an hour. */
  checkSignUp(ip: string): void {
    const perHour = this.settings.signUpsPerIpPerHour ?? 10;
    this.wait(this.limiter.take(`signup:${ip}`, perHour, 1, 3_600_000), `Too many new accounts from this address (${perHour} an hour).`);
  }

  /** One password attempt for `email` from `ip` (the account's budget is shared by every address). */
  checkSignIn(ip: string, email: string): void {
    const { perAccount, perIp, windowMs } = SIGN_IN_ATTEMPTS;
    this.wait(this.limiter.take(`signin-ip:${ip}`, perIp, 1, windowMs), 'Too many sign-in attempts from this address.');
    this.wait(this.limiter.take(`signin:${email.trim().toLowerCase()}`, perAccount, 1, windowMs), 'Too many sign-in attempts for this account.');
  }

  private check(bucket: string, perMinute: number, who: string, cost = 1): void {
    this.wait(this.limiter.take(bucket, perMinute, cost), `Rate limit reached: ${perMinute} requests per minute for ${who}.`);
  }

  private wait(result: TakeResult, what: string): void {
    if (result.ok) return;
    const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
    throw new RateLimitedError(`${what} Retry in ${seconds} s.`, seconds);
  }
}
