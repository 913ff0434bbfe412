import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../../src/domain/cursor.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { topicUrl } from '../../src/domain/urls.ts';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const forged = (tuple: unknown) => Buffer.from(JSON.stringify(tuple)).toString('base64url');
const invalid = (e: unknown) => e instanceof DomainError && e.code === 'invalid_argument';

test('a cursor round-trips for its listing and is refused by another listing or when tampered', () => {
  const cursor = encodeCursor('topics:latest', { key: '2024-01-01T00:00:00.000Z', id: ID });
  assert.match(cursor, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeCursor('topics:latest', cursor, CURSOR_SHAPES.byTime), {
    key: '2024-01-01T00:00:00.000Z',
    id: ID,
  });
  assert.equal(decodeCursor('topics:latest', undefined, CURSOR_SHAPES.byTime), undefined);
  for (const bad of [cursor.slice(3), 'not a cursor', forged({ a: 1 })]) {
    assert.throws(() => decodeCursor('topics:latest', bad, CURSOR_SHAPES.byTime), invalid);
  }
  assert.throws(() => decodeCursor('topics:top', cursor, CURSOR_SHAPES.byCount), DomainError);
});

test("a forged cursor whose values do not fit the listing's column types is invalid_argument", () => {
  const byTime =
    (key: unknown, id: unknown = ID) =>
    () =>
      decodeCursor('x', forged(['x', key, id]), CURSOR_SHAPES.byTime);
  for (const key of [
    'x',
    5,
    '2024-02-30T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '2024-01-01',
    '2024-01-01T00:00:00.000Z\u0000',
    null,
  ]) {
    assert.throws(byTime(key), invalid, JSON.stringify(key));
  }
  for (const id of ['not-a-uuid', 7, `${ID}\u0000`, null])
    assert.throws(byTime('2024-01-01T00:00:00.000Z', id), invalid, JSON.stringify(id));
  const byCount = (key: unknown) => () =>
    decodeCursor('x', forged(['x', key, ID]), CURSOR_SHAPES.byCount);
  for (const key of ['abc', '5', 1.5, -1, 2 ** 31, 1e300])
    assert.throws(byCount(key), invalid, JSON.stringify(key));
  assert.deepEqual(byCount(2 ** 31 - 1)(), { key: 2 ** 31 - 1, id: ID });
  // A listing may accept several shapes (a search pages by score, or by offset for re-ranked modes).
  assert.deepEqual(
    decodeCursor('s', forged(['s', 0.25, ID]), CURSOR_SHAPES.byScore, CURSOR_SHAPES.byOffset),
    { key: 0.25, id: ID },
  );
  assert.deepEqual(
    decodeCursor('s', forged(['s', 20, 'o']), CURSOR_SHAPES.byScore, CURSOR_SHAPES.byOffset),
    { key: 20, id: 'o' },
  );
  assert.throws(
    () =>
      decodeCursor('s', forged(['s', 'abc', 'o']), CURSOR_SHAPES.byScore, CURSOR_SHAPES.byOffset),
    invalid,
  );
});

test('topic and post URLs follow https://<slug>.<base>/t/<topic-slug>#post-<id>', () => {
  const prod = { publicScheme: 'https' as const, baseDomain: 'hamlet.so', port: 8787 };
  assert.equal(topicUrl(prod, 'acme', 'how-to', 'p1'), 'https://acme.hamlet.so/t/how-to#post-p1');
  const dev = { publicScheme: 'http' as const, baseDomain: 'localhost', port: 8787 };
  assert.equal(topicUrl(dev, 'acme', 'how-to'), 'http://acme.localhost:8787/t/how-to');
  assert.equal(topicUrl({ ...dev, port: 80 }, 'acme', 'x'), 'http://acme.localhost/t/x');
});
