// The reputation rule alone and its place in trust levels: each answer's weighed "it worked" counts
// up to a cap, failures and disputes take off; reputation (with the days) makes someone trusted,
// half of it a member, and a negative one holds trust back whatever else was earned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moderationSettingsSchema } from '../moderation/settings.ts';
import { trustLevel, type TrustInputs } from '../moderation/trust.ts';
import { DISPUTED_PENALTY, REPUTATION_RULE, reputationLabel } from './reputation.ts';

const thresholds = moderationSettingsSchema.parse({}).trust;
const inputs = (over: Partial<TrustInputs>): TrustInputs => ({
  daysHere: 0,
  acceptedAnswers: 0,
  votesReceived: 0,
  upheldFlags: 0,
  reputation: 0,
  ...over,
});

test('worked minus failed minus a penalty per disputed answer', () => {
  assert.equal(REPUTATION_RULE.of({ workedWeight: 3.25, failedWeight: 1, disputed: 0 }), 2.25);
  assert.equal(
    REPUTATION_RULE.of({ workedWeight: 0, failedWeight: 2, disputed: 1 }),
    -2 - DISPUTED_PENALTY,
  );
  assert.equal(reputationLabel(11.6), 'rep 12');
  assert.equal(reputationLabel(null), '');
});

test('reputation makes a member at half the threshold and trusted with the days', () => {
  const t = thresholds.trusted_reputation;
  assert.equal(trustLevel(inputs({ reputation: t / 2 - 0.25 }), thresholds), 'new');
  assert.equal(trustLevel(inputs({ reputation: t / 2 }), thresholds), 'member');
  assert.equal(trustLevel(inputs({ reputation: t }), thresholds), 'member', 'not before the days');
  const days = thresholds.trusted_after_days;
  assert.equal(trustLevel(inputs({ reputation: t, daysHere: days }), thresholds), 'trusted');
  assert.equal(trustLevel(inputs({ reputation: t - 1, daysHere: days }), thresholds), 'member');
});

test('a negative reputation holds trust back whatever else was earned', () => {
  const earned = inputs({ daysHere: 365, acceptedAnswers: 10, votesReceived: 50 });
  assert.equal(trustLevel(earned, thresholds), 'trusted');
  assert.equal(trustLevel({ ...earned, reputation: -0.25 }, thresholds), 'member');
});
