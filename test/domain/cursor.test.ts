import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { topicUrl } from '../../src/domain/urls.ts';

test('a cursor round-trips for its listing and is refused by another listing or when tampered', () => {
  const cursor = encodeCursor('topics:latest', { key: '2024-01-01T00:00:00.000Z', id: 'abc' });
  assert.match(cursor, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeCursor('topics:latest', cursor), { key: '2024-01-01T00:00:00.000Z', id: 'abc' });
  assert.equal(decodeCursor('topics:latest', undefined), undefined);
  for (const bad of [cursor.slice(3), 'not a cursor', Buffer.from('{"a":1}').toString('base64url')]) {
    assert.throws(() => decodeCursor('topics:latest', bad), (e: unknown) => e instanceof DomainError && e.code === 'invalid_argument');
  }
  assert.throws(() => decodeCursor('topics:top', cursor), DomainError);
});

test('topic and post URLs follow https://<slug>.<base>/t/<topic-slug>#post-<id>', () => {
  const prod = { publicScheme: 'https' as const, baseDomain: 'hamlet.so', port: 8787 };
  assert.equal(topicUrl(prod, 'acme', 'how-to', 'p1'), 'https://acme.hamlet.so/t/how-to#post-p1');
  const dev = { publicScheme: 'http' as const, baseDomain: 'localhost', port: 8787 };
  assert.equal(topicUrl(dev, 'acme', 'how-to'), 'http://acme.localhost:8787/t/how-to');
  assert.equal(topicUrl({ ...dev, port: 80 }, 'acme', 'x'), 'http://acme.localhost/t/x');
});
