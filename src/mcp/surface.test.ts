import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpolate, structuredResult } from './surface.ts';

test('interpolate fills {{ name }} placeholders, spaces optional, unknown names kept', () => {
  assert.equal(
    interpolate('Ask {{ topic }} in {{category}}.', { topic: 'webhooks', category: 'support' }),
    'Ask webhooks in support.',
  );
  assert.equal(interpolate('Hello {{ who }}', {}), 'Hello {{ who }}');
  assert.equal(interpolate('{{ a }}{{ a }}', { a: '$&' }), '$&$&');
});

test('structuredResult puts the same JSON, pretty-printed, in content[0].text', () => {
  const r = structuredResult({ query: 'x', total: 0, results: [] });
  assert.equal(r.content?.[0]?.type, 'text');
  assert.equal(
    (r.content?.[0] as { text: string }).text,
    JSON.stringify({ query: 'x', total: 0, results: [] }, null, 2),
  );
  assert.equal(r.isError, false);
});
