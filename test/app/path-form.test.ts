// The path form `/c/<slug>/…` on any host serves exactly what the community's host serves, for
// clients that cannot resolve `*.localhost` (the MCP SDKs, Inspector, mcp-remote): no DNS help is
// installed here, the official SDK client connects to 127.0.0.1. Links in results keep the form
// the request came in; unknown, malformed and reserved slugs answer as an unknown host does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freshDemoAgentKey } from '../../src/demo/demo-key.ts';
import { COMMUNITY_TOOLS } from '../../src/operations/catalogue.ts';
import { listedAsTool } from '../../src/operations/operation.ts';
import { INITIALIZE, raw, rpc } from '../mcp/http-client.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

let h: TestHamlet;
let key: string;
before(async () => {
  h = await startTestHamlet({}, { demo: true });
  key = (await freshDemoAgentKey(h.store, h.services.agents))!.key;
});
after(() => h.stop());

const direct = (path: string) => `http://127.0.0.1:${h.port}${path}`;

test('the official MCP SDK client reaches a community at http://127.0.0.1:<port>/c/acme/api/mcp, and its links keep the path form', async () => {
  const client = new Client({ name: 'path-form-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(direct('/c/acme/api/mcp')), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  try {
    assert.equal(client.getServerVersion()?.title, 'Hamlet: acme');
    // The demo community turns its toolsets on: the seed's nine come first, then those tools.
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      COMMUNITY_TOOLS.filter((op) => listedAsTool(op, ['feedback', 'moderation'])).map(
        (op) => op.name,
      ),
    );
    const found = await client.callTool({
      name: 'search_community',
      arguments: { query: 'webhook signature verification' },
    });
    const results = (found.structuredContent as { results: Array<{ url: string }> }).results;
    assert.ok(results.length > 0);
    for (const r of results)
      assert.match(
        r.url,
        new RegExp(`^http://localhost:${h.port}/c/acme/t/[a-z0-9-]+(#post-[0-9a-f-]{36})?$`),
      );
    const topic = await client.callTool({
      name: 'get_topic',
      arguments: { topic: 'verifying-the-hamlet-signature-header' },
    });
    const { id, url } = (topic.structuredContent as { topic: { id: string; url: string } }).topic;
    assert.match(
      url,
      new RegExp(`^http://localhost:${h.port}/c/acme/t/verifying-the-hamlet-signature-header$`),
    );
    // Resource texts are JSON serialised from the same presented values: the same links.
    const read = await client.readResource({ uri: `hamlet://acme/topics/${id}` });
    const page = JSON.parse((read.contents[0] as { text: string }).text) as {
      topic: { url: string };
      posts: Array<{ url: string }>;
    };
    assert.equal(page.topic.url, url);
    for (const p of page.posts) assert.ok(p.url.startsWith(`${url}#post-`), p.url);
    const hostForm = new RegExp(`//acme\\.localhost:${h.port}`);
    for (const uri of ['hamlet://acme/categories', `hamlet://acme/topics/${id}`]) {
      const text = ((await client.readResource({ uri })).contents[0] as { text: string }).text;
      assert.doesNotMatch(text, hostForm, `${uri} names no host-form URL`);
    }
  } finally {
    await client.close();
  }
});

test('the host form keeps host-form links', async () => {
  const res = await rpc(
    h.hostUrl('acme.localhost', '/api/mcp'),
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_topic', arguments: { topic: 'verifying-the-hamlet-signature-header' } },
    },
    { authorization: `Bearer ${key}` },
  );
  assert.equal(
    res.json().result.structuredContent.topic.url,
    `http://acme.localhost:${h.port}/t/verifying-the-hamlet-signature-header`,
  );
});

test('web pages, /llms and health answer in the path form exactly as on the host, with links that stay in the path form', async () => {
  for (const path of [
    '/t/verifying-the-hamlet-signature-header',
    '/llms?section=errors',
    '/readyz',
    '/t/no-such-topic',
  ]) {
    const onHost = await raw(h.hostUrl('acme.localhost', path));
    const byPath = await raw(direct(`/c/acme${path}`));
    assert.equal(byPath.status, onHost.status, path);
    // The same page, its links in the path form ("/c/acme" for the home, "/c/acme/…" below it).
    const asOnHost = byPath.text
      .replaceAll('/c/acme/', '/')
      .replaceAll('"/c/acme"', '"/"')
      .replaceAll('%2Fc%2Facme%2F', '%2F');
    assert.equal(asOnHost, onHost.text, path);
  }
  for (const home of ['/c/acme', '/c/acme/', '/c/ACME/']) {
    const page = await raw(direct(home));
    assert.equal(page.status, 200, home);
    assert.match(page.text, /<h1>Acme<\/h1>/);
    assert.match(page.text, /href="\/c\/acme\/t\/verifying-the-hamlet-signature-header"/);
  }
  const topic = (await raw(direct('/c/acme/t/verifying-the-hamlet-signature-header'))).text;
  assert.match(topic, /<a href="\/c\/acme">Acme<\/a>/);
  assert.match(
    topic,
    /href="\/c\/acme\/signin\?next=%2Fc%2Facme%2Ft%2Fverifying-the-hamlet-signature-header"/,
    'sign-in comes back to the path form',
  );
  assert.match(
    (await raw(h.hostUrl('acme.localhost', '/'))).text,
    /href="\/t\/verifying-the-hamlet-signature-header"/,
  );
});

test('a trailing slash reaches the MCP endpoint on both forms', async () => {
  for (const url of [direct('/c/acme/api/mcp/'), h.hostUrl('acme.localhost', '/api/mcp/')]) {
    const res = await rpc(url, INITIALIZE());
    assert.equal(res.status, 200, url);
    assert.equal(res.json().result.serverInfo.title, 'Hamlet: acme');
  }
});

test('unknown, malformed and reserved slugs in the path form answer as an unknown host, on MCP and the web', async () => {
  const unknownMcp = await rpc(h.hostUrl('nosuch.localhost', '/api/mcp'), INITIALIZE());
  const unknownWeb = await raw(h.hostUrl('nosuch.localhost', '/'));
  assert.equal(unknownMcp.status, 404);
  // A community-shaped host also offers the apex's account (its members' way in, were it private);
  // the path form lives on the apex's host, which shares that session already: the same page without it.
  const offer =
    /<p>Signed in on the main site already\? <a href="\/session\/continue\?next=%2F">Continue with that account<\/a>\.<\/p>/;
  assert.match(unknownWeb.text, offer);
  const unknownPage = unknownWeb.text.replace(offer, '');
  // (`/c/../api/mcp` and `/c/%2e%2e/…` are not among them: URL parsers, this test's client's too,
  // turn them into the apex's `/api/mcp` before sending, and an IP-literal host is the apex.)
  for (const slug of ['nosuch', 'Bad_Slug!', 'www', 'a']) {
    const mcp = await rpc(direct(`/c/${slug}/api/mcp`), INITIALIZE());
    assert.equal(mcp.status, 404, slug);
    assert.deepEqual(mcp.json(), unknownMcp.json(), slug);
    const web = await raw(direct(`/c/${slug}/`));
    assert.equal(web.status, unknownWeb.status, slug);
    assert.equal(web.text, unknownPage, slug);
  }
});

test('the path form works on any host: the apex, a community host, a bare address', async () => {
  for (const host of ['localhost', 'globex.localhost', '10.0.0.7']) {
    const res = await rpc(h.hostUrl(host, '/c/acme/api/mcp'), INITIALIZE());
    assert.equal(res.json().result.serverInfo.title, 'Hamlet: acme', host);
  }
});

test("the OpenAPI document's server is in the form the document was read in", async () => {
  const byPath = (await raw(direct('/c/acme/api/v1/openapi.json'))).json();
  assert.deepEqual(byPath.servers, [{ url: `http://localhost:${h.port}/c/acme/api/v1` }]);
  const onHost = (await raw(h.hostUrl('acme.localhost', '/api/v1/openapi.json'))).json();
  assert.deepEqual(onHost.servers, [{ url: `http://acme.localhost:${h.port}/api/v1` }]);
});
