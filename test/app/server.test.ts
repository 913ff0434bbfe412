// The assembled server: the seed's initialize example on a community host, the network on the apex,
// unknown hosts, health endpoints.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { INITIALIZE, raw, rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

let h: TestHamlet;
before(async () => {
  h = await startTestHamlet();
  await h.store.communities.create({ slug: 'acme', name: 'Acme', visibility: 'public' });
});
after(() => h.stop());

test('the seed initialize example on acme.localhost answers as "Hamlet: acme"', async () => {
  const res = await rpc(h.hostUrl('acme.localhost', '/api/mcp'), INITIALIZE('2025-06-18'));
  assert.equal(res.status, 200);
  assert.equal(res.headers['mcp-protocol-version'], '2025-06-18');
  const body = res.json();
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(body.id, 1);
  assert.equal(body.result.protocolVersion, '2025-06-18');
  assert.deepEqual(body.result.capabilities.tools, { listChanged: true });
  assert.equal(body.result.serverInfo.name, 'hamlet');
  assert.equal(body.result.serverInfo.title, 'Hamlet: acme');
  assert.match(body.result.serverInfo.version, /^\d+\.\d+\.\d+$/);
  assert.match(body.result.instructions, /^This is one community's own forum and knowledge base/);
  assert.match(
    body.result.instructions,
    /1\. search_community or suggest_answer FIRST\. Almost every question has been asked before\./,
  );
});

test('the apex host is the network server, with its own title and instructions', async () => {
  const res = await rpc(h.hostUrl('localhost', '/api/mcp'), INITIALIZE());
  const result = res.json().result;
  assert.equal(result.serverInfo.title, 'Hamlet network');
  assert.match(result.instructions, /search_network/);
  assert.notEqual(
    result.instructions,
    (await rpc(h.hostUrl('acme.localhost', '/api/mcp'), INITIALIZE())).json().result.instructions,
  );
});

test('an unknown community host: MCP -32600 with HTTP 404, web a 404 page', async () => {
  const mcp = await rpc(h.hostUrl('nosuch.localhost', '/api/mcp'), INITIALIZE());
  assert.equal(mcp.status, 404);
  assert.deepEqual(mcp.json(), {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'This request did not resolve to a community.' },
  });
  const web = await raw(h.hostUrl('nosuch.localhost', '/'));
  assert.equal(web.status, 404);
  assert.match(web.headers['content-type']!, /text\/html/);
  const foreign = await rpc(h.hostUrl('evil.example.com', '/api/mcp'), INITIALIZE());
  assert.equal(foreign.status, 404);
});

test('a session created on one community is refused on another', async () => {
  await h.store.communities.create({ slug: 'globex', name: 'Globex', visibility: 'public' });
  const init = await rpc(h.hostUrl('acme.localhost', '/api/mcp'), INITIALIZE());
  const sid = init.headers['mcp-session-id']!;
  const elsewhere = await rpc(
    h.hostUrl('globex.localhost', '/api/mcp'),
    { jsonrpc: '2.0', id: 2, method: 'ping' },
    { 'mcp-session-id': sid },
  );
  assert.equal(elsewhere.status, 404);
  const home = await rpc(
    h.hostUrl('acme.localhost', '/api/mcp'),
    { jsonrpc: '2.0', id: 3, method: 'ping' },
    { 'mcp-session-id': sid },
  );
  assert.equal(home.status, 200);
});

test('/heartbeat is {"success": true}; /readyz checks the database', async () => {
  const hb = await raw(h.hostUrl('localhost', '/heartbeat'));
  assert.equal(hb.status, 200);
  assert.deepEqual(hb.json(), { success: true });
  const ready = await raw(h.hostUrl('acme.localhost', '/readyz'));
  assert.equal(ready.status, 200);
  assert.equal(ready.json().database, 'ok');
});

test('requests are logged as JSON lines with a request id, and never with a key', async () => {
  await raw(h.hostUrl('localhost', '/heartbeat'), {
    headers: {
      authorization: 'Bearer hmlt_live_supersecretvalue1234567890abcd',
      'x-request-id': 'req-123',
    },
  });
  await rpc(
    h.hostUrl('acme.localhost', '/api/mcp'),
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } },
    { 'x-api-key': 'hmlt_live_supersecretvalue1234567890abcd' },
  );
  const lines = h.logs
    .join('')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(lines.some((l) => l.requestId === 'req-123' && l.path === '/heartbeat'));
  assert.ok(!h.logs.join('').includes('supersecretvalue'));
});

test('/llms serves the agent documentation, whole or one section, generated from the live tools', async () => {
  const whole = await raw(h.hostUrl('localhost', '/llms'));
  assert.equal(whole.status, 200);
  assert.match(whole.headers['content-type']!, /^text\/plain/);
  assert.match(whole.text, /^# Hamlet agent documentation/);
  for (const tool of [
    'search_community',
    'suggest_answer',
    'create_topic',
    'get_approval',
    'search_network',
    'ask_community',
  ]) {
    assert.ok(whole.text.includes(`  ${tool}: `), tool);
  }
  const errors = await raw(h.hostUrl('acme.localhost', '/llms?section=errors'));
  assert.match(errors.text, /^# Errors/);
  assert.match(errors.text, /-32600 {2}This request did not resolve to a community\./);
  for (const host of ['localhost', 'acme.localhost']) {
    const txt = await raw(h.hostUrl(host, '/llms.txt'));
    assert.equal(txt.status, 200, `/llms.txt on ${host}`);
    assert.match(txt.headers['content-type']!, /^text\/plain/);
    assert.equal(txt.text, (await raw(h.hostUrl(host, '/llms'))).text, 'the same text as /llms');
  }
  const missing = await raw(h.hostUrl('localhost', '/llms?section=nope'));
  assert.equal(missing.status, 404);
  assert.match(missing.text, /Sections \(\/llms\?section=<name>\): overview, network, community/);
});
