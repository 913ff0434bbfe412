// The sender refuses private targets (by literal address and by what a name resolves to) unless
// they are allowed, gives up at its deadline, keeps an excerpt of a large answer, and reports a
// redirect without following it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postWebhook } from './sender.ts';

test('private targets are refused unless allowed; slow receivers hit the deadline; redirects are reported', async () => {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
    if (req.url === '/big') return void res.end('x'.repeat(1_000_000));
    if (req.url === '/redirect')
      return void res.writeHead(301, { location: 'http://169.254.169.254/' }).end();
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    const refused = await postWebhook(`http://127.0.0.1:${port}/`, {}, '{}', {
      timeoutMs: 1_000,
      allowPrivate: false,
    });
    assert.equal(refused.status, null);
    assert.match(refused.error!, /^Refused: .*127\.0\.0\.1/);
    assert.equal(refused.refused, true, 'a refusal by policy says so (it is final)');
    assert.match(
      (
        await postWebhook(`http://localhost:${port}/`, {}, '{}', {
          timeoutMs: 1_000,
          allowPrivate: false,
        })
      ).error!,
      /^Refused/,
    );
    assert.match(
      (await postWebhook('http://[::1]:9/', {}, '{}', { timeoutMs: 1_000, allowPrivate: false }))
        .error!,
      /^Refused/,
    );
    assert.equal(hits, 0);
    const ok = await postWebhook(`http://127.0.0.1:${port}/`, {}, '{}', {
      timeoutMs: 1_000,
      allowPrivate: true,
    });
    assert.deepEqual([ok.status, ok.excerpt], [200, 'ok']);
    const big = await postWebhook(`http://127.0.0.1:${port}/big`, {}, '{}', {
      timeoutMs: 1_000,
      allowPrivate: true,
    });
    assert.deepEqual(
      [big.status, big.error, big.excerpt?.length],
      [200, null, 1_000],
      'a large answer is cut, not a failure',
    );
    const slow = await postWebhook(`http://127.0.0.1:${port}/slow`, {}, '{}', {
      timeoutMs: 300,
      allowPrivate: true,
    });
    assert.equal(slow.status, null);
    assert.match(slow.error!, /within 300 ms/);
    assert.equal(slow.refused, undefined, 'a deadline is worth retrying');
    assert.ok(slow.durationMs < 1_000);
    const moved = await postWebhook(`http://127.0.0.1:${port}/redirect`, {}, '{}', {
      timeoutMs: 1_000,
      allowPrivate: true,
    });
    assert.equal(moved.status, 301);
    assert.match(moved.error!, /not followed/);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
