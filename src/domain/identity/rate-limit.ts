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
  /** Takes `cost` tokens (default 1) from `bucket` (capacity and refill: `perMinute`); all or none. */
  take(bucket: string, perMinute: number, cost?: number): TakeResult;
}

type Bucket = { tokens: number; at: number };

export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly clock: Clock = systemClock, private readonly maxBuckets = 100_000) {}

  take(bucket: string, perMinute: number, cost = 1): TakeResult {
    const now = this.clock().getTime();
    const ratePerMs = perMinute / 60_000;
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

export type RateLimitSettings = { perKeyPerMinute: number; perIpPerMinute: number };

/** A budget after a request took from it: for RateLimit response headers. */
export type RateState = { limit: number; remaining: number; resetSeconds: number };

export class RateLimits {
  constructor(
    private readonly settings: RateLimitSettings,
    private readonly limiter: RateLimiter = new TokenBucketLimiter(),
  ) {}

  /** Per credential: pass the key's id (never the key, nor its shared display prefix). */
  checkKey(keyId: string): RateState {
    return this.check(`key:${keyId}`, this.settings.perKeyPerMinute, 'this key');
  }

  /** Per client address; `cost` units at once (a JSON-RPC batch pays one per message). */
  checkIp(ip: string, cost = 1): RateState {
    return this.check(`ip:${ip}`, this.settings.perIpPerMinute, 'this IP address', cost);
  }

  private check(bucket: string, perMinute: number, who: string, cost = 1): RateState {
    const result = this.limiter.take(bucket, perMinute, cost);
    if (result.ok) return { limit: perMinute, remaining: result.remaining, resetSeconds: Math.ceil(((perMinute - result.remaining) * 60) / perMinute) };
    const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
    throw new RateLimitedError(`Rate limit reached: ${perMinute} requests per minute for ${who}. Retry in ${seconds} s.`, seconds);
  }
}
