// Per-IP rate limit on the MCP endpoint: HTTP 429 with Retry-After and a message saying when to retry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

let h: TestHamlet;
before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5' });
});
after(() => h.stop());

test('the sixth request in a minute from one IP is 429 with Retry-After', async () => {
  const url = h.hostUrl('localhost', '/api/mcp');
  for (let i = 0; i < 5; i++)
    assert.equal((await rpc(url, { jsonrpc: '2.0', id: i, method: 'ping' })).status, 200);
  const limited = await rpc(url, { jsonrpc: '2.0', id: 6, method: 'ping' });
  assert.equal(limited.status, 429);
  const wait = Number(limited.headers['retry-after']);
  assert.ok(wait >= 1 && wait <= 60, `Retry-After ${limited.headers['retry-after']}`);
  const { error } = limited.json();
  assert.equal(error.code, -32005);
  assert.match(
    error.message,
    new RegExp(
      `Rate limit reached: 5 requests per minute for this IP address\\. Retry in ${wait} s\\.`,
    ),
  );
  assert.equal(error.data.retryAfterSeconds, wait);
});
