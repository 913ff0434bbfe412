// Unit tests of the address rules: every IPv6 form that carries a private or loopback IPv4 address
// is refused as that address is, and a client's address has one canonical text and one bucket
// (IPv4-mapped as IPv4, IPv6 by its /64).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addressBucket,
  bareHost,
  canonicalAddress,
  isBlockedAddress,
  isPrivateByName,
} from './addresses.ts';

test('IPv6 forms embedding a private or loopback IPv4 address are refused, in URLs too', () => {
  for (const ip of [
    '::127.0.0.1', // IPv4-compatible
    '::7f00:1',
    '::8.8.8.8', // IPv4-compatible is deprecated and never routed: refused whatever it carries
    '::ffff:0:127.0.0.1', // IPv4-translated
    '::ffff:0:a9fe:a9fe',
    '::ffff:10.0.0.1', // IPv4-mapped
    '64:ff9b::127.0.0.1', // NAT64
    '64:ff9b::10.1.2.3',
    '64:ff9b:1::a00:1', // NAT64 for local use
    '2002:c0a8:101::1', // 6to4 of 192.168.1.1
    '2002:a9fe:a9fe::', // 6to4 of the metadata address
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '2001:20::1', // ORCHIDv2
    '100::1', // discard-only
    '3fff::1', // documentation
    'fe80::1%eth0',
  ])
    assert.equal(isBlockedAddress(ip), true, ip);
  for (const url of [
    'http://[::127.0.0.1]/h',
    'http://[::ffff:0:127.0.0.1]/h',
    'http://[64:ff9b::7f00:1]/h',
    'http://[2002:7f00:1::]/h',
    'http://[0:0:0:0:0:ffff:7f00:1]/h',
  ])
    assert.equal(isPrivateByName(bareHost(new URL(url))), true, url);
  for (const ip of [
    '64:ff9b::8.8.8.8', // NAT64 to a public IPv4 address: how IPv6-only hosts reach it
    '2002:808:808::1', // 6to4 of 8.8.8.8
    '::ffff:0:8.8.8.8',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
  ])
    assert.equal(isBlockedAddress(ip), false, ip);
});

test('a client address has one canonical text', () => {
  const same: [string, string][] = [
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7:5180', '203.0.113.7'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:0db8::0001', '2001:db8::1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // the first of equal runs
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // one zero group stays
    ['fe80::1%eth0', 'fe80::1'],
    ['::1', '::1'],
    ['::', '::'],
    ['unknown', 'unknown'],
  ];
  for (const [raw, canonical] of same) assert.equal(canonicalAddress(raw), canonical, raw);
});

test('per-address buckets: IPv4 by address, IPv6 by /64', () => {
  assert.equal(addressBucket('203.0.113.7'), '203.0.113.7');
  assert.equal(addressBucket('::ffff:203.0.113.7'), '203.0.113.7');
  assert.notEqual(addressBucket('203.0.113.7'), addressBucket('203.0.113.8'));
  const a = addressBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
  assert.equal(a, '2001:db8:1:2::/64');
  assert.equal(addressBucket('2001:DB8:1:2::1'), a);
  assert.equal(addressBucket('[2001:db8:1:2:ffff::]:80'), a);
  assert.notEqual(addressBucket('2001:db8:1:3::1'), a);
  assert.equal(addressBucket('2001:db8::1'), '2001:db8::/64');
  assert.equal(addressBucket('::1'), '::/64');
  assert.equal(addressBucket('unknown'), 'unknown');
  // A bucket is its own bucket: keys made twice do not drift.
  assert.equal(addressBucket(a), a);
});
