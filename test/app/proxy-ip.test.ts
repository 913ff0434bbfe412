// Behind a trusted proxy the client address is read from the right of X-Forwarded-For, as many
// entries from the right as there are trusted proxies: what a client writes further left cannot
// buy it a fresh rate-limit budget. The MCP transport and the web/REST app read it the same way.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { raw, rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

const started: TestHamlet[] = [];
after(() => Promise.all(started.map((h) => h.stop())));
const start = async (env: Record<string, string>) => {
  const h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5', ...env });
  started.push(h);
  return h;
};
const ping = (h: TestHamlet, xff: string) =>
  rpc(
    h.hostUrl('localhost', '/api/mcp'),
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { 'x-forwarded-for': xff },
  );

test('one trusted proxy: spoofed left entries share the budget of the address the proxy saw', async () => {
  const h = await start({ HAMLET_TRUST_PROXY: '1' });
  const statuses = [];
  for (let i = 0; i < 8; i++) statuses.push((await ping(h, `198.51.100.${i}, 203.0.113.7`)).status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
  assert.equal((await ping(h, '203.0.113.8')).status, 200, 'another client has its own budget');
});

test('two trusted proxies: the client is the second entry from the right', async () => {
  const h = await start({ HAMLET_TRUST_PROXY: '1', HAMLET_TRUSTED_PROXY_HOPS: '2' });
  const statuses = [];
  for (let i = 0; i < 7; i++)
    statuses.push((await ping(h, `198.51.100.${i}, 203.0.113.9, 10.0.0.${i}`)).status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
  assert.equal((await ping(h, '203.0.113.10, 10.0.0.1')).status, 200);
});

test('without a trusted proxy X-Forwarded-For is ignored', async () => {
  const h = await start({});
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await ping(h, `203.0.113.${i}`)).status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
});

test('the web app logs the same client address the MCP transport limits', async () => {
  const h = await start({ HAMLET_TRUST_PROXY: '1' });
  await raw(h.hostUrl('localhost', '/heartbeat'), {
    headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.77', 'x-request-id': 'ip-check' },
  });
  const line = h.logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((l) => l.requestId === 'ip-check');
  assert.equal(line?.ip, '203.0.113.77');
});
