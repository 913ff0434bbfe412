// The signals prior's reputation part alone: a positive reputation of a thread's answers' authors
// raises it by at most REPUTATION_WEIGHT, never lowers it, and the option turns it off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_SIGNALS } from '../store/votes.ts';
import { REPUTATION_WEIGHT, signalPrior } from './signals.ts';

const now = Date.parse('2026-12-01T00:00:00.000Z');
const withReputation = (authorReputation: number | null) => ({ ...NO_SIGNALS, authorReputation });

test('reputation is a bounded boost, never a penalty', () => {
  assert.equal(signalPrior(withReputation(null), now), 1);
  assert.equal(signalPrior(withReputation(-8), now), 1, 'a negative reputation is no penalty here');
  const some = signalPrior(withReputation(2), now);
  assert.ok(some > 1 && some < signalPrior(withReputation(10), now));
  assert.ok(signalPrior(withReputation(1e6), now) <= 1 + REPUTATION_WEIGHT);
  assert.equal(signalPrior(withReputation(10), now, { reputation: false }), 1);
});
