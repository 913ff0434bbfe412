// The bounded cache: never more than its limit, the least recently used entry goes first (a read
// counts as a use), an entry past its time to live is not answered, and delete/clear drop entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedCache } from './bounded-cache.ts';

test('holds at most maxEntries, dropping the least recently used', () => {
  const cache = new BoundedCache<string, number>({ maxEntries: 3 });
  for (const [i, k] of ['a', 'b', 'c'].entries()) cache.set(k, i);
  assert.equal(cache.get('a'), 0, 'a is now the most recently used');
  cache.set('d', 3);
  assert.equal(cache.size, 3);
  assert.equal(cache.get('b'), undefined, 'b was the least recently used');
  assert.deepEqual(
    ['a', 'c', 'd'].map((k) => cache.get(k)),
    [0, 2, 3],
  );
  for (let i = 0; i < 1000; i++) cache.set(`k${i}`, i);
  assert.equal(cache.size, 3);
  assert.equal(cache.get('k999'), 999);
});

test('an entry older than ttlMs is not answered and leaves the cache', () => {
  let now = 1_000;
  const cache = new BoundedCache<string, string>({ maxEntries: 10, ttlMs: 100, now: () => now });
  cache.set('x', 'one');
  now += 99;
  assert.equal(cache.get('x'), 'one');
  now += 1;
  assert.equal(cache.get('x'), undefined);
  assert.equal(cache.size, 0);
  cache.set('x', 'two');
  assert.equal(cache.get('x'), 'two', 'set again, good again');
});

test('delete and clear drop entries; a limit below 1 is refused', () => {
  const cache = new BoundedCache<number, number>({ maxEntries: 5 });
  cache.set(1, 1);
  cache.set(2, 2);
  assert.equal(cache.delete(1), true);
  assert.equal(cache.delete(1), false);
  cache.clear();
  assert.equal(cache.size, 0);
  assert.throws(() => new BoundedCache({ maxEntries: 0 }), /positive integer/);
});
