// X-Request-Id is taken from a trusted proxy only: by default a loopback peer (nginx on the same
// machine) has its id used, echoed and logged on every face (web, REST, MCP); a peer outside
// HAMLET_TRUSTED_PROXIES, or an id that is not well-formed, gets a fresh id instead, which the
// response carries and the access line logs. The setting itself is checked when it is read.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { raw } from '../mcp/http-client.ts';
import { waitFor } from '../helpers/wait.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';
import { loadConfig } from '../../src/config/config.ts';
import { trustedPeer } from '../../src/config/trusted-proxies.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const started: TestHamlet[] = [];
after(async () => {
  for (const h of started) await h.stop();
});

/** Each face once with `id` as X-Request-Id: the id each response carries and its access line's. */
async function idsOnEveryFace(h: TestHamlet, id: string) {
  const url = (path: string) => `http://127.0.0.1:${h.port}${path}`;
  const answers = [
    await raw(url('/heartbeat'), { headers: { 'x-request-id': id } }),
    await raw(url('/api/v1/communities'), { headers: { 'x-request-id': id } }),
    await raw(url('/api/mcp'), {
      method: 'POST',
      headers: {
        'x-request-id': id,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    }),
  ];
  const out = [];
  for (const res of answers) {
    const echoed = res.headers['x-request-id'];
    assert.ok(typeof echoed === 'string', 'every response carries X-Request-Id');
    const line = await waitFor(
      () =>
        h.logs
          .join('')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.msg === 'request' && l.requestId === echoed),
      { message: `the access line of ${echoed}` },
    );
    out.push({ echoed, logged: line.requestId });
  }
  return out;
}

test('from a loopback peer (the default trusted proxy) a well-formed id is used and logged', async () => {
  const h = await startTestHamlet({ LOG_LEVEL: 'info' });
  started.push(h);
  for (const { echoed, logged } of await idsOnEveryFace(h, 'nginx-0f3a9c.1'))
    assert.deepEqual([echoed, logged], ['nginx-0f3a9c.1', 'nginx-0f3a9c.1']);
  // Not well-formed (a space, or longer than 100): a fresh one.
  for (const bad of ['two words', 'x'.repeat(101), 'a\u00e9b'])
    for (const { echoed, logged } of await idsOnEveryFace(h, bad)) {
      assert.match(echoed, UUID);
      assert.equal(logged, echoed);
    }
});

test('from a peer outside HAMLET_TRUSTED_PROXIES the id is replaced by a fresh one', async () => {
  const h = await startTestHamlet({ LOG_LEVEL: 'info', HAMLET_TRUSTED_PROXIES: '10.0.0.0/8' });
  started.push(h);
  for (const { echoed, logged } of await idsOnEveryFace(h, 'client-chosen-id')) {
    assert.match(echoed, UUID);
    assert.equal(logged, echoed);
  }
  const none = await startTestHamlet({ LOG_LEVEL: 'info', HAMLET_TRUSTED_PROXIES: 'none' });
  started.push(none);
  for (const { echoed } of await idsOnEveryFace(none, 'client-chosen-id'))
    assert.match(echoed, UUID);
});

test('the setting: addresses and CIDR blocks, IPv4 clients of a dual-stack socket, mistakes named', () => {
  const peers = loadConfig({ HAMLET_TRUSTED_PROXIES: ' 10.1.0.0/16 , 192.0.2.7,2001:db8::/32' });
  const trusted = trustedPeer(peers.trustedProxies);
  for (const yes of ['10.1.200.3', '::ffff:10.1.0.1', '192.0.2.7', '2001:db8:1::5'])
    assert.equal(trusted(yes), true, yes);
  for (const no of ['10.2.0.1', '192.0.2.8', '127.0.0.1', '::1', '2001:db9::1', undefined, 'x'])
    assert.equal(trusted(no), false, String(no));
  const byDefault = trustedPeer(loadConfig({}).trustedProxies);
  assert.deepEqual(
    ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '10.0.0.1'].map(byDefault),
    [true, true, true, true, false],
  );
  assert.deepEqual(loadConfig({ HAMLET_TRUSTED_PROXIES: 'none' }).trustedProxies, []);
  assert.throws(
    () => loadConfig({ HAMLET_TRUSTED_PROXIES: '10.0.0.0/33,nginx' }),
    /HAMLET_TRUSTED_PROXIES: "10\.0\.0\.0\/33": the prefix after \/ must be 0 to 32.*HAMLET_TRUSTED_PROXIES: "nginx" is not an address/,
  );
  // A near miss of the name (built here: the repository names settings only) says the name meant.
  const misspelt = ['HAMLET', 'TRUSTED', 'PROXIE'].join('_');
  assert.throws(() => loadConfig({ [misspelt]: '10.0.0.1' }), /HAMLET_TRUSTED_PROXIES/);
});
