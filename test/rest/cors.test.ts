// REST from a browser on another origin: the preflight names what may be sent, answers carry
// Access-Control-Allow-Origin `*` and expose the headers a client reads (ETag, Link, rate limits),
// and credentials (the web session cookie) are never allowed cross-site.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startRestFixture, type Fixture } from './fixture.ts';
import { raw } from '../mcp/http-client.ts';

let f: Fixture;
before(async () => {
  f = await startRestFixture();
});
after(async () => f?.stop());

test('a preflight from another origin names the methods and headers a key-holding client may send', async () => {
  const res = await raw(f.h.hostUrl('acme.localhost', '/api/v1/topics'), {
    method: 'OPTIONS',
    headers: {
      origin: 'https://dashboard.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, idempotency-key',
    },
  });
  assert.equal(res.status, 204, res.text);
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.match(res.headers['access-control-allow-methods'] ?? '', /POST/);
  assert.match(
    (res.headers['access-control-allow-headers'] ?? '').toLowerCase(),
    /idempotency-key/,
  );
  assert.equal(res.headers['access-control-allow-credentials'], undefined);
});

test('answers to another origin carry Allow-Origin * and expose ETag, Link and the rate-limit headers', async () => {
  const res = await raw(f.h.hostUrl('acme.localhost', '/api/v1/topics'), {
    headers: { origin: 'https://dashboard.example', authorization: `Bearer ${f.keys.reader}` },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers['access-control-allow-origin'], '*');
  const exposed = (res.headers['access-control-expose-headers'] ?? '').toLowerCase();
  for (const h of ['etag', 'link', 'ratelimit', 'ratelimit-policy', 'retry-after'])
    assert.ok(exposed.split(/,\s*/).includes(h), `${h} in ${exposed}`);
  assert.equal(res.headers['access-control-allow-credentials'], undefined);
});
