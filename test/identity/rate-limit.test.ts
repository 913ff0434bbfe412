// Token-bucket rate limits with an injected clock: the limit triggers, says when to retry, recovers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RateLimitedError,
  RateLimits,
  TokenBucketLimiter,
} from '../../src/domain/identity/rate-limit.ts';
import { loadConfig } from '../../src/config/config.ts';

test('per-key limit: 120 a minute, then rate_limited with the wait, then tokens refill', async () => {
  let now = 1_000_000;
  const limits = new RateLimits(
    { perKeyPerMinute: 120, perIpPerMinute: 300 },
    new TokenBucketLimiter(() => new Date(now)),
  );
  for (let i = 0; i < 120; i++) await limits.checkKey('hmlt_live_AbCd');
  let refused: unknown;
  try {
    await limits.checkKey('hmlt_live_AbCd');
  } catch (err) {
    refused = err;
  }
  assert.ok(refused instanceof RateLimitedError);
  assert.equal(refused.code, 'rate_limited');
  assert.equal(refused.retryAfterSeconds, 1);
  assert.equal(
    refused.message,
    'Rate limit reached: 120 requests per minute for this key. Retry in 1 s.',
  );
  await limits.checkKey('hmlt_live_Other'); // buckets are per key
  now += 500; // half a second refills one token (2 per second)
  await limits.checkKey('hmlt_live_AbCd');
  await assert.rejects(limits.checkKey('hmlt_live_AbCd'), RateLimitedError);
  now += 60_000;
  for (let i = 0; i < 120; i++) await limits.checkKey('hmlt_live_AbCd'); // fully recovered, never above capacity
  await assert.rejects(limits.checkKey('hmlt_live_AbCd'), RateLimitedError);
});

test('per-IP limit says how long to wait', async () => {
  let now = 0;
  const limits = new RateLimits(
    { perKeyPerMinute: 120, perIpPerMinute: 6 },
    new TokenBucketLimiter(() => new Date(now)),
  );
  for (let i = 0; i < 6; i++) await limits.checkIp('203.0.113.9');
  await assert.rejects(
    limits.checkIp('203.0.113.9'),
    (err: unknown) =>
      err instanceof RateLimitedError &&
      err.retryAfterSeconds === 10 &&
      err.message ===
        'Rate limit reached: 6 requests per minute for this IP address. Retry in 10 s.',
  );
  now += 7_000;
  await assert.rejects(
    limits.checkIp('203.0.113.9'),
    (err: unknown) => err instanceof RateLimitedError && err.retryAfterSeconds === 3,
  );
  now += 3_000;
  await limits.checkIp('203.0.113.9');
});

test('the limiter keeps a bounded number of buckets', () => {
  const limiter = new TokenBucketLimiter(() => new Date(0), 100);
  for (let i = 0; i < 1000; i++) limiter.take(`ip:${i}`, 10);
  assert.ok((limiter as unknown as { buckets: Map<string, unknown> }).buckets.size <= 100);
});

test('limits are configurable from the environment', () => {
  assert.deepEqual(loadConfig({}).rateLimits, {
    perKeyPerMinute: 120,
    perIpPerMinute: 300,
    signUpsPerIpPerHour: 10,
  });
  assert.deepEqual(
    loadConfig({
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '10',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '20',
      HAMLET_RATE_LIMIT_SIGNUPS_PER_IP_PER_HOUR: '3',
    }).rateLimits,
    { perKeyPerMinute: 10, perIpPerMinute: 20, signUpsPerIpPerHour: 3 },
  );
});

test('sign-ups are limited per address per hour', async () => {
  let now = 0;
  const limits = new RateLimits(
    { perKeyPerMinute: 120, perIpPerMinute: 300, signUpsPerIpPerHour: 2 },
    new TokenBucketLimiter(() => new Date(now)),
  );
  await limits.checkSignUp('10.0.0.1');
  await limits.checkSignUp('10.0.0.1');
  await assert.rejects(
    limits.checkSignUp('10.0.0.1'),
    (err: RateLimitedError) =>
      err.code === 'rate_limited' && Math.abs(err.retryAfterSeconds - 1800) <= 1,
  );
  await limits.checkSignUp('10.0.0.2');
  now += 1_801_000;
  await limits.checkSignUp('10.0.0.1');
});

test('sign-in counts failures only, per account and address, and per address', async () => {
  let now = 0;
  const limits = new RateLimits(
    { perKeyPerMinute: 120, perIpPerMinute: 300 },
    new TokenBucketLimiter(() => new Date(now)),
  );
  const fail = async (ip: string, email: string) => void (await limits.checkSignIn(ip, email));
  const succeed = async (ip: string, email: string) =>
    (await limits.checkSignIn(ip, email)).succeeded();
  // Successes never count.
  for (let i = 0; i < 100; i++) await succeed('10.0.0.1', 'ada@example.org');
  // Ten failures for ada from one address lock ada out there, and nowhere else.
  for (let i = 0; i < 10; i++) await fail('10.6.6.6', 'Ada@Example.org');
  await assert.rejects(
    limits.checkSignIn('10.6.6.6', 'ada@example.org'),
    (err: RateLimitedError) =>
      err.code === 'rate_limited' &&
      err.retryAfterSeconds === 90 &&
      /^Too many failed sign-in attempts for this account from this address\. Retry in 90 s\.$/.test(
        err.message,
      ),
  );
  await succeed('10.0.0.1', 'ada@example.org');
  await fail('10.6.6.6', 'bob@example.org');
  // A quarter of an hour refills the budget.
  now += 15 * 60_000;
  for (let i = 0; i < 10; i++) await fail('10.6.6.6', 'ada@example.org');
  // Fifty failures from one address over any accounts stop that address.
  for (let i = 0; i < 50; i++) await fail('10.7.7.7', `n${i}@example.org`);
  await assert.rejects(
    limits.checkSignIn('10.7.7.7', 'ada@example.org'),
    (err: RateLimitedError) =>
      err.message === 'Too many failed sign-in attempts from this address. Retry in 18 s.',
  );
  await succeed('10.0.0.1', 'ada@example.org');
});

test('sign-in attempts in flight hold their units: concurrent guesses cannot overrun the budget', async () => {
  const limits = new RateLimits(
    { perKeyPerMinute: 120, perIpPerMinute: 300 },
    new TokenBucketLimiter(() => new Date(0)),
  );
  const pending = await Promise.all(
    Array.from({ length: 10 }, () => limits.checkSignIn('10.6.6.6', 'ada@example.org')),
  );
  await assert.rejects(limits.checkSignIn('10.6.6.6', 'ada@example.org'), RateLimitedError);
  // One of them turns out right: its unit comes back (once, however often it says so).
  await pending[0]!.succeeded();
  await pending[0]!.succeeded();
  const last = await limits.checkSignIn('10.6.6.6', 'ada@example.org');
  await assert.rejects(limits.checkSignIn('10.6.6.6', 'ada@example.org'), RateLimitedError);
  await last.succeeded();
});
