import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate } from './uri-template.ts';

test('a template matches exactly and decodes its variables', () => {
  const t = compileTemplate('hamlet://{slug}/topics/{topic_id}');
  assert.deepEqual(t.variables, ['slug', 'topic_id']);
  assert.deepEqual(t.match('hamlet://acme/topics/abc-123'), { slug: 'acme', topic_id: 'abc-123' });
  assert.deepEqual(t.match('hamlet://acme/topics/a%20b'), { slug: 'acme', topic_id: 'a b' });
  assert.equal(t.match('hamlet://acme/topics/abc/extra'), undefined);
  assert.equal(t.match('hamlet://acme/articles/abc'), undefined);
  assert.equal(t.match('xhamlet://acme/topics/abc'), undefined);
});

test('regex characters in the literal part are literal', () => {
  const t = compileTemplate('test://a.b/{id}');
  assert.equal(t.match('test://aXb/1'), undefined);
  assert.deepEqual(t.match('test://a.b/1'), { id: '1' });
});
