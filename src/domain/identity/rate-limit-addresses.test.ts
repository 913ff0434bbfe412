// Unit tests of how the rate limits name per-address buckets: every check that limits by address
// (requests, sign-ups, sign-in attempts) counts an IPv6 client by its /64 and an IPv4-mapped
// address as its IPv4 address, however the address is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressKey, RateLimitedError, RateLimits } from './rate-limit.ts';

const refused = (p: Promise<unknown>) => assert.rejects(p, RateLimitedError);

test('bucket names: IPv4 as is, IPv4-mapped as IPv4, IPv6 by /64', () => {
  assert.equal(addressKey('ip', '203.0.113.9'), 'ip:203.0.113.9');
  assert.equal(addressKey('ip', '::ffff:203.0.113.9'), 'ip:203.0.113.9');
  assert.equal(addressKey('ip', '2001:DB8:0:7:0:0:0:1'), 'ip:2001:db8:0:7::/64');
  assert.equal(addressKey('signup', '2001:db8:0:7:abcd::'), 'signup:2001:db8:0:7::/64');
});

test('requests, sign-ups and sign-in attempts from one /64 share a budget', async () => {
  const limits = new RateLimits({ perKeyPerMinute: 10, perIpPerMinute: 3, signUpsPerIpPerHour: 2 });
  for (const ip of ['2001:db8:1:1::1', '2001:db8:1:1::2', '2001:DB8:1:1:ffff::3'])
    await limits.checkIp(ip);
  await refused(limits.checkIp('2001:db8:1:1:1:2:3:4'));
  await limits.checkIp('2001:db8:1:2::1');

  await limits.checkSignUp('198.51.100.1');
  await limits.checkSignUp('::ffff:198.51.100.1');
  await refused(limits.checkSignUp('::FFFF:c633:6401'));

  // 50 attempts per address in a quarter hour (each for another account, under its own limit).
  for (let i = 0; i < 50; i++) await limits.checkSignIn(`2001:db8:5:5::${i + 1}`, `a${i}@x.test`);
  await assert.rejects(
    limits.checkSignIn('2001:db8:5:5:9::9', 'fresh@x.test'),
    /from this address/,
  );
  await limits.checkSignIn('2001:db8:5:6::1', 'fresh@x.test');
});
