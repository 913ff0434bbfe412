// Names a client chooses (query parameters, JSON body fields, tool arguments, form fields) that are
// also Object.prototype's (`toString`, `__proto__`, `constructor`, `hasOwnProperty`, `valueOf`) are
// unknown names like any other: REST answers 422 problem+json naming the parameter, MCP a tool
// error naming the argument, the web its page; never a 500, never a stack trace in the log.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startRestFixture, type Fixture, type Reply } from '../rest/fixture.ts';
import { callTool } from './mcp.ts';
import { WebClient } from '../web/client.ts';

const NAMES = ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf'];

let f: Fixture;
before(async () => {
  f = await startRestFixture();
});
after(async () => {
  await f?.stop();
});

/** The answer is 422 problem+json whose detail names `name`. */
function namesUnknown(r: Reply, name: string, what: string): void {
  assert.equal(r.status, 422, `${what}: ${r.status} ${r.text.slice(0, 200)}`);
  assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
  assert.equal(r.json.code, 'invalid_argument', what);
  assert.ok(r.json.detail.includes(`"${name}"`), `${what}: ${r.json.detail}`);
}

/** Checks that nothing was logged as an error since it was made. */
function errorWatch(): () => void {
  const from = f.h.logs.length;
  return () =>
    assert.deepEqual(
      f.h.logs
        .slice(from)
        .filter((l) => /"level":(50|60)/.test(l))
        .map((l) => l.slice(0, 300)),
      [],
    );
}

test('REST: a query parameter named like a prototype property is an unknown parameter (422)', async () => {
  const noErrorLogged = errorWatch();
  const { api, keys } = f;
  for (const name of NAMES) {
    for (const path of [
      '/topics', // a plain listing
      '/search?q=webhook', // a route with a renamed field and nested filters
      '/suggest?q=how%20do%20I%20verify%20signatures', // a renamed field only
      '/topics/verifying-the-hamlet-signature-header', // a path parameter
    ]) {
      const url = `${path}${path.includes('?') ? '&' : '?'}${encodeURIComponent(name)}=1`;
      namesUnknown(await api.call('GET', url, { key: keys.reader }), name, `GET ${url}`);
    }
  }
  // The network host's routes too.
  namesUnknown(
    await f.network.call('GET', '/search?q=webhook&toString=1', { key: keys.reader }),
    'toString',
    'network search',
  );
  noErrorLogged();
});

test('REST: a JSON body field named like a prototype property is refused, never applied', async () => {
  const noErrorLogged = errorWatch();
  const { api, keys } = f;
  for (const name of NAMES) {
    const raw = JSON.stringify({
      category: 'support',
      title: `A question carrying ${name}`,
      body: 'A body long enough to be a question.',
    }).replace(/^\{/, `{${JSON.stringify(name)}:{"x":1},`);
    namesUnknown(
      await api.call('POST', '/topics', { key: keys.writer, raw }),
      name,
      `body ${name}`,
    );
  }
  noErrorLogged();
});

test('MCP: a tool argument named like a prototype property is an unknown argument', async () => {
  const noErrorLogged = errorWatch();
  const url = f.h.hostUrl('acme.localhost', '/api/mcp');
  for (const name of NAMES) {
    for (const [tool, args] of [
      ['list_topics', { [name]: 1 }],
      ['search_community', { query: 'webhook', filters: { [name]: 1 } }],
    ] as const) {
      const answer = await callTool(url, tool, args, f.keys.reader);
      assert.equal(answer.status, 200, `${tool} ${name}`);
      assert.equal(answer.isError, true, `${tool} ${name}`);
      assert.notEqual(answer.structured?.code, 'internal', `${tool} ${name}`);
      assert.ok(
        String(answer.structured?.error).includes(`"${name}"`),
        `${tool} ${name}: ${JSON.stringify(answer.structured)}`,
      );
    }
    const unknownTool = await callTool(url, name, {}, f.keys.reader);
    assert.ok(unknownTool.status < 500 && unknownTool.rpcError?.code !== -32603, name);
  }
  noErrorLogged();
});

test('web: query strings and form fields named like prototype properties are ignored', async () => {
  const noErrorLogged = errorWatch();
  const base = f.h.hostUrl('acme.localhost', '');
  const client = new WebClient(base.replace(/\/$/, ''));
  for (const name of NAMES) {
    for (const path of ['/', '/search', '/ask', '/signin']) {
      const page = await client.get(`${path}?${encodeURIComponent(name)}=1&q=x`);
      assert.ok(page.status < 500, `${path} ${name}: ${page.status}`);
    }
    await client.get('/signin');
    const signin = await client.post(
      '/signin',
      { email: 'nobody@example.com', password: 'wrong', [name]: '1' },
      { follow: false },
    );
    assert.ok(signin.status < 500, `signin ${name}: ${signin.status}`);
  }
  noErrorLogged();
});
