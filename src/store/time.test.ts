// Timestamps leave the store in one form: ISO-8601 UTC with milliseconds, whatever the driver gave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toIso, toIsoOrNull } from './time.ts';

test('a timestamp already in the canonical form comes back as it is', () => {
  assert.equal(toIso('2002-08-22T11:36:23.000Z'), '2002-08-22T11:36:23.000Z');
  assert.equal(toIso('2026-12-03T23:59:59.999Z'), '2026-12-03T23:59:59.999Z');
});

test('other forms of the same instant are normalized to the canonical one', () => {
  assert.equal(toIso(new Date(Date.UTC(2002, 7, 22, 11, 36, 23))), '2002-08-22T11:36:23.000Z');
  assert.equal(toIso('2002-08-22T11:36:23Z'), '2002-08-22T11:36:23.000Z');
  assert.equal(toIso('2002-08-22T13:36:23.5+02:00'), '2002-08-22T11:36:23.500Z');
  assert.equal(toIso('2002-08-22 11:36:23+00'), '2002-08-22T11:36:23.000Z');
});

test('what is not a timestamp is refused, and absence stays absent', () => {
  assert.throws(() => toIso('yesterday'), /Not a timestamp: yesterday/);
  assert.equal(toIsoOrNull(null), null);
  assert.equal(toIsoOrNull(undefined), null);
});
