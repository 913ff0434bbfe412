// Which server a request reaches: a custom domain maps to its community; X-Forwarded-Host is honoured
// only behind a trusted proxy (HAMLET_TRUST_PROXY=1).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { INITIALIZE, rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

let direct: TestHamlet;
let proxied: TestHamlet;
before(async () => {
  direct = await startTestHamlet();
  proxied = await startTestHamlet({ HAMLET_TRUST_PROXY: '1' });
  for (const h of [direct, proxied]) {
    await h.store.communities.create({
      slug: 'acme',
      name: 'Acme',
      visibility: 'public',
      customDomain: 'forum.acme.example',
    });
  }
});
after(async () => {
  await direct.stop();
  await proxied.stop();
});

const titleOf = async (h: TestHamlet, headers: Record<string, string>) => {
  const res = await rpc(`http://127.0.0.1:${h.port}/api/mcp`, INITIALIZE(), headers);
  return res.status === 200 ? res.json().result.serverInfo.title : res.status;
};

test('a custom domain reaches its community', async () => {
  assert.equal(
    await titleOf(direct, { host: `forum.acme.example:${direct.port}` }),
    'Hamlet: acme',
  );
  assert.equal(await titleOf(direct, { host: `other.example:${direct.port}` }), 404);
});

test('X-Forwarded-Host is ignored unless the proxy is trusted', async () => {
  const headers = (h: TestHamlet) => ({
    host: `localhost:${h.port}`,
    'x-forwarded-host': 'acme.localhost',
  });
  assert.equal(await titleOf(direct, headers(direct)), 'Hamlet network');
  assert.equal(await titleOf(proxied, headers(proxied)), 'Hamlet: acme');
});
