// Rate limits per key and per IP (and for sign-up and sign-in): token buckets (capacity = the limit,
// refilled continuously over its window), behind the RateLimiter interface. In memory for one
// process (SQLite); shared through the database when several instances serve one PostgreSQL, so a
// client that spreads its requests over the instances still gets one budget, not one per instance.
// Every per-address bucket is named by addressKey: one per IPv4 address (an IPv4-mapped IPv6 address
// counts as its IPv4 address), one per IPv6 /64, whatever way the address was written.
import { addressBucket } from '../../outbound/addresses.ts';
import { DomainError } from '../errors.ts';
import type { TakeResult } from '../../store/kysely/rate-buckets.ts';
import { systemClock, type Clock } from './auth.ts';

export type { TakeResult } from '../../store/kysely/rate-buckets.ts';
export { addressBucket, canonicalAddress } from '../../outbound/addresses.ts';

/** The bucket of a per-address limit named `kind` for a client at `ip` (IPv6 counted by /64). */
export function addressKey(kind: string, ip: string): string {
  return `${kind}:${addressBucket(ip)}`;
}

/** DomainError('rate_limited') that also carries the wait, for HTTP 429 + Retry-After. */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
    this.name = 'RateLimitedError';
  }
}

export interface RateLimiter {
  /**
   * Takes `cost` tokens (default 1) from `bucket`, all or none. The bucket holds `capacity` tokens and
   * refills that many per `windowMs` (default one minute). A negative cost gives tokens back (the
   * bucket holds no more than `capacity` again at its next take).
   */
  take(
    bucket: string,
    capacity: number,
    cost?: number,
    windowMs?: number,
  ): TakeResult | Promise<TakeResult>;
}

type Bucket = { tokens: number; at: number };

export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly maxBuckets = 100_000,
  ) {}

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
    return {
      ok: false,
      retryAfterMs: Math.ceil((Math.min(cost, perMinute) - b.tokens) / ratePerMs),
    };
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

/**
 * A shared limiter that falls back to a local one while the shared one fails (the database is
 * unreachable): each instance then limits on its own rather than refusing or admitting everything.
 */
export class SharedLimiter implements RateLimiter {
  constructor(
    private readonly shared: RateLimiter,
    private readonly local: RateLimiter,
    private readonly onError: (err: unknown) => void,
  ) {}

  async take(bucket: string, capacity: number, cost = 1, windowMs = 60_000): Promise<TakeResult> {
    try {
      return await this.shared.take(bucket, capacity, cost, windowMs);
    } catch (err) {
      this.onError(err);
      return this.local.take(bucket, capacity, cost, windowMs);
    }
  }
}

export type RateLimitSettings = {
  perKeyPerMinute: number;
  perIpPerMinute: number;
  /** New accounts per client address per hour (sign-up is open to anyone). */
  signUpsPerIpPerHour?: number;
};

/**
 * Failed password attempts in a quarter of an hour: for one account from one address, and from one
 * address over every account.
 */
const SIGN_IN_FAILURES = { perAccountAndIp: 10, perIp: 50, windowMs: 15 * 60_000 } as const;

/** Account mails asked for in an hour: for one e-mail address, and from one client address. */
const ACCOUNT_MAIL = { perAddress: 5, perIp: 30, windowMs: 3_600_000 } as const;

/** A password attempt admitted by checkSignIn: say when it succeeded, so that it does not count. */
export type SignInAttempt = { succeeded(): Promise<void> };

/** A budget after a request took from it: for RateLimit response headers. */
export type RateState = { limit: number; remaining: number; resetSeconds: number };

export class RateLimits {
  constructor(
    private readonly settings: RateLimitSettings,
    private readonly limiter: RateLimiter = new TokenBucketLimiter(),
  ) {}

  // Each check resolves with the budget left when admitted, and rejects with RateLimitedError
  // (carrying the wait) when not.

  /** Per credential: pass the key's id (never the key, nor its shared display prefix). */
  async checkKey(keyId: string): Promise<RateState> {
    return this.check(`key:${keyId}`, this.settings.perKeyPerMinute, 'this key');
  }

  /** Per client address; `cost` units at once (a JSON-RPC batch pays one per message). */
  async checkIp(ip: string, cost = 1): Promise<RateState> {
    return this.check(addressKey('ip', ip), this.settings.perIpPerMinute, 'this IP address', cost);
  }

  /** One account created from `ip`: at most signUpsPerIpPerHour (default 10) an hour. */
  async checkSignUp(ip: string): Promise<void> {
    const perHour = this.settings.signUpsPerIpPerHour ?? 10;
    this.wait(
      await this.limiter.take(addressKey('signup', ip), perHour, 1, 3_600_000),
      `Too many new accounts from this address (${perHour} an hour).`,
    );
  }

  /**
   * One account mail asked for from `ip` (a reset, a new verification link) for `email`, or one
   * account link spent from `ip` (no email): per address and hour, and per client address and hour,
   * so that nobody floods an inbox or tries links in bulk.
   */
  async checkAccountMail(ip: string, email?: string): Promise<void> {
    const { perAddress, perIp, windowMs } = ACCOUNT_MAIL;
    this.wait(
      await this.limiter.take(addressKey('account-mail-ip', ip), perIp, 1, windowMs),
      `Too many account e-mail requests from this address (${perIp} an hour).`,
    );
    if (!email) return;
    const account = email.trim().toLowerCase().slice(0, 320);
    this.wait(
      await this.limiter.take(`account-mail ${account}`, perAddress, 1, windowMs),
      `Too many account mails asked for this e-mail address (${perAddress} an hour); check that inbox, or wait.`,
    );
  }

  /**
   * Admits one password attempt for `email` from `ip` within the budgets of failures: the account's
   * from this address, and this address's over every account. Only failures count: an attempt
   * holds one unit of each while it runs (so concurrent guesses cannot overrun a budget) and gives
   * them back when it succeeds. An address that has not failed still signs in while another one
   * hammers the same account.
   */
  async checkSignIn(ip: string, email: string): Promise<SignInAttempt> {
    const { perAccountAndIp, perIp, windowMs } = SIGN_IN_FAILURES;
    const account = email.trim().toLowerCase().slice(0, 320);
    const buckets: [string, number][] = [
      [addressKey('signin-failures-ip', ip), perIp],
      [`${addressKey('signin-failures', ip)} ${account}`, perAccountAndIp],
    ];
    const giveBack = (held: [string, number][]) =>
      Promise.all(held.map(async ([b, capacity]) => this.limiter.take(b, capacity, -1, windowMs)));
    const first = await this.limiter.take(buckets[0]![0], perIp, 1, windowMs);
    this.wait(first, 'Too many failed sign-in attempts from this address.');
    const second = await this.limiter.take(buckets[1]![0], perAccountAndIp, 1, windowMs);
    if (!second.ok) await giveBack(buckets.slice(0, 1));
    this.wait(second, 'Too many failed sign-in attempts for this account from this address.');
    let given = false;
    return {
      succeeded: async () => {
        if (given) return;
        given = true;
        await giveBack(buckets);
      },
    };
  }

  private async check(
    bucket: string,
    perMinute: number,
    who: string,
    cost = 1,
  ): Promise<RateState> {
    const result = await this.limiter.take(bucket, perMinute, cost);
    this.wait(result, `Rate limit reached: ${perMinute} requests per minute for ${who}.`);
    const remaining = result.ok ? result.remaining : 0;
    return {
      limit: perMinute,
      remaining,
      resetSeconds: Math.ceil(((perMinute - remaining) * 60) / perMinute),
    };
  }

  private wait(result: TakeResult, what: string): void {
    if (result.ok) return;
    const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
    throw new RateLimitedError(`${what} Retry in ${seconds} s.`, seconds);
  }
}
