// Finding an MCP server before connecting, and what a host reveals without a key: server.json (in
// the repository and served), the Server Card of each server and the apex's catalog of them (in
// pages), a private community's host (on MCP exactly like an unknown host until one of its agent
// keys comes), `/api/mcp/` with a slash, and every scope in the protected-resource metadata.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { systemActor } from '../../src/domain/actor.ts';
import { communityOrigin } from '../../src/domain/urls.ts';
import { SCOPES } from '../../src/domain/vocabulary.ts';
import { CATALOG_PAGE, registryServerJson } from '../../src/surfaces/server-card.ts';
import { VERSION } from '../../src/version.ts';
import { INITIALIZE, raw, readSse, rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

let h: TestHamlet;
let secretKey: string;
let acmeKey: string;
let memberKey: string;
before(async () => {
  h = await startTestHamlet();
  const system = systemActor('test');
  const acme = await h.store.communities.create({
    slug: 'acme',
    name: 'Acme',
    description: 'The Acme support forum.',
    visibility: 'public',
  });
  const secret = await h.store.communities.create({
    slug: 'skunkworks',
    name: 'Skunkworks',
    visibility: 'private',
  });
  await h.services.mcpConfig.set(system, secret, {
    prompts: [{ name: 'secret_prompt', template: 'Only insiders see this prompt.' }],
    instructions: 'Codename: lanternfish.',
  });
  ({ key: secretKey } = await h.services.agents.create(system, secret, {
    name: 'insider',
    scopes: [],
  }));
  ({ key: acmeKey } = await h.services.agents.create(system, acme, {
    name: 'outsider',
    scopes: [],
  }));
  await h.services.accounts.createUser(system, {
    email: 'member@example.com',
    password: 'a long enough password',
    name: 'Mem Ber',
  });
  await h.services.accounts.addMember(system, secret, {
    email: 'member@example.com',
    role: 'member',
  });
  ({ key: memberKey } = await h.services.accounts.mintUserKey(system, {
    email: 'member@example.com',
  }));
});
after(() => h.stop());

const modernHeaders = (method: string) => ({
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
});
const modernBody = (method: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

test("without one of its agent keys, a private community's host answers every MCP method exactly like an unknown host", async () => {
  const probes: Array<[unknown, Record<string, string>]> = [
    [INITIALIZE('2025-11-25'), {}],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}],
    [{ jsonrpc: '2.0', id: 1, method: 'prompts/list' }, {}],
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }, {}],
    [modernBody('server/discover'), modernHeaders('server/discover')],
    [modernBody('tools/list'), modernHeaders('tools/list')],
  ];
  for (const [body, headers] of probes) {
    const unknown = await rpc(h.hostUrl('nosuch.localhost', '/api/mcp'), body, headers);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.json().error, {
      code: -32600,
      message: 'This request did not resolve to a community.',
    });
    for (const auth of [
      {},
      { authorization: `Bearer ${acmeKey}` },
      { authorization: 'Bearer hmlt_live_notarealkeynotarealkeynotarealkey12' },
    ] as Record<string, string>[]) {
      const secret = await rpc(h.hostUrl('skunkworks.localhost', '/api/mcp'), body, {
        ...headers,
        ...auth,
      });
      assert.deepEqual(
        [secret.status, secret.text],
        [unknown.status, unknown.text],
        JSON.stringify(body),
      );
    }
  }
});

test('with one of its agent keys, the private community is served in both eras', async () => {
  const auth = { authorization: `Bearer ${secretKey}` };
  const init = await rpc(
    h.hostUrl('skunkworks.localhost', '/api/mcp'),
    INITIALIZE('2025-11-25'),
    auth,
  );
  assert.equal(init.json().result.serverInfo.title, 'Hamlet: skunkworks');
  assert.match(init.json().result.instructions, /lanternfish/);
  const listed = await rpc(
    h.hostUrl('skunkworks.localhost', '/api/mcp'),
    modernBody('prompts/list'),
    { ...modernHeaders('prompts/list'), ...auth },
  );
  assert.ok(listed.json().result.prompts.some((p: { name: string }) => p.name === 'secret_prompt'));
  assert.equal(
    listed.json().result.cacheScope,
    'private',
    "a private community's lists are not for shared caches",
  );
  const publicList = await rpc(
    h.hostUrl('acme.localhost', '/api/mcp'),
    modernBody('tools/list'),
    modernHeaders('tools/list'),
  );
  assert.equal(publicList.json().result.cacheScope, 'public');
});

test("a member's user key sees the private community on MCP; its tools still take agent keys", async () => {
  const auth = { authorization: `Bearer ${memberKey}` };
  const init = await rpc(
    h.hostUrl('skunkworks.localhost', '/api/mcp'),
    INITIALIZE('2025-11-25'),
    auth,
  );
  assert.equal(init.json().result.serverInfo.title, 'Hamlet: skunkworks');
  const call = await rpc(
    h.hostUrl('skunkworks.localhost', '/api/mcp'),
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'list_categories', arguments: {} },
    },
    auth,
  );
  assert.equal(call.json().result.structuredContent.code, 'unauthorized');
});

test('/api/mcp/ with a trailing slash is the MCP endpoint, not an HTML 404', async () => {
  const res = await rpc(h.hostUrl('acme.localhost', '/api/mcp/'), {
    jsonrpc: '2.0',
    id: 1,
    method: 'ping',
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.json(), { jsonrpc: '2.0', id: 1, result: {} });
});

test('server.json in the repository is the registry entry for hamlet.so; each deployment serves its own', async () => {
  const shipped = JSON.parse(
    readFileSync(new URL('../../server.json', import.meta.url), 'utf8'),
  ) as { remotes: Array<{ url: string }> };
  const cfg = { publicScheme: 'https' as const, baseDomain: 'hamlet.so', port: 443 };
  assert.deepEqual(
    shipped,
    registryServerJson({
      origin: (s) => communityOrigin(cfg, s),
      baseDomain: 'hamlet.so',
      version: VERSION,
    }),
  );
  assert.equal(shipped.remotes[0]!.url, 'https://{community}.hamlet.so/api/mcp');
  const served = (await raw(h.hostUrl('localhost', '/api/mcp/server.json'))).json();
  // Locally, the path form on the port served: the host form `{community}.localhost` does not
  // resolve in the MCP SDKs.
  assert.equal(served.remotes[0].url, `http://localhost:${h.port}/c/{community}/api/mcp`);
});

test('each server has a Server Card at <mcp-url>/server-card; a private community has none', async () => {
  const acme = await raw(h.hostUrl('acme.localhost', '/api/mcp/server-card'));
  assert.equal(acme.status, 200);
  assert.equal(acme.headers['content-type'], 'application/mcp-server-card+json');
  assert.equal(acme.headers['access-control-allow-origin'], '*');
  assert.equal(
    acme.json().description,
    'Acme: The Acme support forum. Search it and ask it over MCP with one of its agent keys.',
    'one full stop where the description has its own',
  );
  const byPath = await raw(h.hostUrl('127.0.0.1', '/c/acme/api/mcp/server-card'));
  assert.deepEqual(byPath.json(), acme.json(), 'in the path form too');
  const wellKnown = await raw(h.hostUrl('acme.localhost', '/.well-known/mcp/server-card'));
  assert.deepEqual(wellKnown.json(), acme.json(), 'and at the host’s well-known address');
  assert.equal(acme.json().remotes[0].url, h.hostUrl('localhost', '/c/acme/api/mcp'));
  assert.ok(acme.json().remotes[0].supportedProtocolVersions.includes('2026-07-28'));
  assert.equal(
    (await raw(h.hostUrl('localhost', '/api/mcp/server-card'))).json().title,
    'Hamlet network',
  );
  assert.equal((await raw(h.hostUrl('skunkworks.localhost', '/api/mcp/server-card'))).status, 404);
  assert.equal(
    (await raw(h.hostUrl('127.0.0.1', '/c/skunkworks/api/mcp/server-card'))).status,
    404,
  );
});

test('the apex catalog lists the network server and every public community in pages, never a private one', async () => {
  // More public communities than one page holds.
  for (let i = 0; i < CATALOG_PAGE + 3; i++)
    await h.store.communities.create({
      slug: `zz-catalog-${String(i).padStart(3, '0')}`,
      name: `Catalog ${i}`,
      visibility: 'public',
    });
  const first = await raw(h.hostUrl('localhost', '/.well-known/mcp/catalog.json'));
  assert.equal(first.status, 200);
  assert.equal(first.headers['access-control-allow-origin'], '*');
  const page = first.json();
  assert.equal(page.servers[0].title, 'Hamlet network');
  assert.equal(page.servers[0].url, h.hostUrl('localhost', '/api/mcp'));
  const acme = page.servers.find((s: { url: string }) => s.url.endsWith('/c/acme/api/mcp'));
  assert.equal(acme.serverCard, h.hostUrl('localhost', '/c/acme/api/mcp/server-card'));
  assert.equal((await raw(acme.serverCard)).json().name, acme.name, 'its card answers');
  assert.equal(page.servers.length, 1 + CATALOG_PAGE);
  assert.match(
    first.headers.link ?? '',
    /^<http:\/\/localhost:\d+\/\.well-known\/mcp\/catalog\.json\?cursor=[^>]+>; rel="next"$/,
  );
  const all = [...page.servers];
  let next: string | undefined = page.next;
  while (next) {
    const more = (await raw(next)).json();
    all.push(...more.servers);
    next = more.next;
  }
  const names = all.map((s: { name: string }) => s.name);
  assert.equal(new Set(names).size, names.length, 'no server twice');
  assert.ok(names.includes('localhost/zz-catalog-052'), 'the last page reached');
  assert.ok(!JSON.stringify(all).includes('skunkworks'), 'no private community');
  assert.equal(
    (await raw(h.hostUrl('acme.localhost', '/.well-known/mcp/catalog.json'))).status,
    404,
  );
  const bad = await raw(h.hostUrl('localhost', '/.well-known/mcp/catalog.json?cursor=nonsense'));
  assert.equal(bad.status, 400);
});

test('the protected-resource metadata lists every scope', async () => {
  const meta = await raw(h.hostUrl('acme.localhost', '/.well-known/oauth-protected-resource/mcp'));
  assert.equal(meta.status, 200);
  assert.deepEqual(meta.json().scopes_supported, [...SCOPES]);
});

test("subscriptions/listen: list changes need no key; updates of a community's topics need one of its keys", async () => {
  const listen = async (
    notifications: Record<string, unknown>,
    auth: Record<string, string> = {},
  ) => {
    const controller = new AbortController();
    const res = await fetch(h.hostUrl('acme.localhost', '/api/mcp'), {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...modernHeaders('subscriptions/listen'),
        ...auth,
      },
      body: JSON.stringify({
        ...modernBody('subscriptions/listen'),
        params: { ...modernBody('subscriptions/listen').params, notifications },
      }),
    });
    if (/application\/json/.test(res.headers.get('content-type') ?? '')) return res.json();
    const first = (await readSse(res, (events) => events.length >= 1, 3000))[0];
    controller.abort();
    return JSON.parse(first!.data);
  };
  assert.equal(
    (await listen({ toolsListChanged: true })).method,
    'notifications/subscriptions/acknowledged',
  );
  const uri = 'hamlet://acme/topics/00000000-0000-4000-8000-000000000000';
  const refused = await listen({ resourceSubscriptions: [uri] });
  assert.equal(refused.error.code, -32003);
  assert.match(refused.error.message, /agent key/);
  const acked = await listen(
    { resourceSubscriptions: [uri] },
    { authorization: `Bearer ${acmeKey}` },
  );
  assert.deepEqual(acked.params.notifications, { resourceSubscriptions: [uri] });
});
