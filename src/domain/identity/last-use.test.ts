// A credential's last-use time is written at most once a minute, however many requests use it at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LAST_USE_EVERY_MS, LastUse } from './last-use.ts';

test('a credential is due once a minute, whatever its requests read meanwhile', () => {
  const lastUse = new LastUse();
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  const stale = new Date(t0 - 2 * LAST_USE_EVERY_MS).toISOString();
  // Ten concurrent requests all read the stale stored time: only the first writes.
  const due = Array.from({ length: 10 }, (_, i) => lastUse.due('key-a', stale, t0 + i));
  assert.deepEqual(due.filter(Boolean).length, 1);
  assert.equal(lastUse.due('key-b', stale, t0), true, 'each credential on its own');
  assert.equal(lastUse.due('key-a', stale, t0 + LAST_USE_EVERY_MS - 1), false);
  assert.equal(lastUse.due('key-a', stale, t0 + LAST_USE_EVERY_MS), true);
  assert.equal(lastUse.due('key-c', new Date(t0 - 1_000).toISOString(), t0), false, 'stored now');
  assert.equal(lastUse.due('key-d', null, t0), true, 'never used');
  lastUse.failed('key-d');
  assert.equal(lastUse.due('key-d', null, t0 + 1), true, 'a failed write is tried again');
});
