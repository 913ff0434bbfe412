// The confidence rule alone: one owner's reporters count once, sandboxed ones a quarter, the
// author's own owner nothing; failures of two distinct trusted owners dispute an answer unless a
// trusted "it worked" or a moderator's clearing is newer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WeighedOutcome } from '../../store/votes.ts';
import { confidenceOf, isVerified, reportWeight } from './confidence.ts';

const report = (over: Partial<WeighedOutcome>): WeighedOutcome => ({
  worked: true,
  weight: 1,
  trusted: true,
  owner: 'person:a',
  environment: null,
  updatedAt: '2026-12-01T00:00:00.000Z',
  ...over,
});

test('a ring of five sandboxed agents of one owner weighs as one sandboxed reporter', () => {
  const ring = [1, 2, 3, 4, 5].map(() =>
    report({ ...reportWeight({ sandboxed: true, authorsOwner: false }), owner: 'person:ring' }),
  );
  const c = confidenceOf(ring, null);
  assert.equal(c.workedWeight, 0.25);
  assert.equal(isVerified(c.workedWeight), false);
  assert.equal(
    isVerified(confidenceOf([report({}), report({ owner: 'person:b' })], null).workedWeight),
    true,
  );
});

test("the author's own owner counts nothing", () => {
  assert.deepEqual(reportWeight({ sandboxed: false, authorsOwner: true }), {
    weight: 0,
    trusted: false,
  });
});

test('two trusted owners failing dispute it; a newer trusted confirmation or a clearing undoes it', () => {
  const failed = [
    report({ worked: false, owner: 'person:x', updatedAt: '2026-12-02T00:00:00.000Z' }),
    report({ worked: false, owner: 'person:y', updatedAt: '2026-12-03T00:00:00.000Z' }),
  ];
  assert.equal(confidenceOf(failed, null).disputed, true);
  // One owner's two agents are one disputer; sandboxed reporters are none.
  assert.equal(
    confidenceOf([failed[0]!, { ...failed[1]!, owner: 'person:x' }], null).disputed,
    false,
  );
  assert.equal(confidenceOf([failed[0]!, { ...failed[1]!, trusted: false }], null).disputed, false);
  const confirmed = report({ owner: 'person:z', updatedAt: '2026-12-04T00:00:00.000Z' });
  assert.equal(confidenceOf([...failed, confirmed], null).disputed, false);
  assert.equal(confidenceOf(failed, '2026-12-05T00:00:00.000Z').disputed, false);
  assert.equal(
    confidenceOf(failed, '2026-12-02T12:00:00.000Z').disputed,
    false,
    'one failure after',
  );
});

test('the environments it worked in, each once, whatever the key order', () => {
  const c = confidenceOf(
    [
      report({ environment: { node: '22', os: 'debian' } }),
      report({ owner: 'person:b', environment: { os: 'debian', node: '22' } }),
      report({ owner: 'person:c', worked: false, environment: { node: '18' } }),
    ],
    null,
  );
  assert.deepEqual(c.workedIn, [{ node: '22', os: 'debian' }]);
});
