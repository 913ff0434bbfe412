// The network server on the apex host, with the official SDK client: search_network →
// find_community → get_topic → ask_community with a user key. Private communities stay invisible.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { readSse } from '../mcp/http-client.ts';

let h: TestHamlet;
let reader: Client;
let userKey: string;

before(async () => {
  h = await startTestHamlet({}, { demo: true });
  const system = systemActor('test');
  await h.services.accounts.createUser(system, {
    email: 'grace@example.com',
    password: 'a long enough password',
    name: 'Grace Hopper',
  });
  ({ key: userKey } = await h.services.accounts.mintUserKey(system, {
    email: 'grace@example.com',
  }));
  reader = new Client({ name: 'outside-agent', version: '1.0.0' });
  await reader.connect(
    new StreamableHTTPClientTransport(new URL(h.hostUrl('localhost', '/api/mcp'))),
  );
});
after(async () => {
  await reader?.close();
  await h?.stop();
});

type Result = { structuredContent?: any; content?: any; isError?: boolean };
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;

test('the network server has its own title and 6 tools, readable without a key', async () => {
  assert.equal(reader.getServerVersion()?.title, 'Hamlet network');
  const { tools } = await reader.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    'ask_community',
    'find_community',
    'get_community',
    'get_topic',
    'search_network',
    'suggest_answer',
  ]);
});

test('search the network, find the community, read the topic, ask as a person', async () => {
  const found = await call(reader, 'search_network', { query: 'PostgreSQL several instances' });
  assert.equal(found.isError, false);
  const first = found.structuredContent.results[0];
  assert.equal(first.community, 'acme');
  // Locally the network hands out the path form, which every MCP client resolves.
  assert.match(first.url, /^http:\/\/localhost:\d+\/c\/acme\/t\//);

  const communities = await call(reader, 'find_community', {
    subject: 'running Hamlet with PostgreSQL',
  });
  const acme = communities.structuredContent.communities[0];
  assert.equal(acme.slug, 'acme');
  assert.match(acme.mcp_url, /^http:\/\/localhost:\d+\/c\/acme\/api\/mcp$/);
  assert.ok(acme.matches > 0);

  const about = await call(reader, 'get_community', { community: 'acme' });
  assert.ok(about.structuredContent.categories.some((c: { slug: string }) => c.slug === 'support'));

  const topic = await call(reader, 'get_topic', { community: 'acme', topic: first.topic_id });
  assert.equal(topic.structuredContent.community, 'acme');
  assert.ok(topic.structuredContent.posts.length >= 2);

  const suggested = await call(reader, 'suggest_answer', {
    question: 'Can I use Postgres for Hamlet?',
  });
  assert.equal(suggested.isError, false);

  // Writing needs a user key.
  const anonymous = await call(reader, 'ask_community', {
    community: 'acme',
    category: 'support',
    title: 'Is there a Helm chart for Hamlet?',
    body: 'We deploy on Kubernetes and would like a chart.',
  });
  assert.equal(anonymous.isError, true);
  assert.equal(anonymous.structuredContent.code, 'unauthorized');
  assert.match(anonymous.structuredContent.error, /hmlt_u_/);

  const writer = new Client({ name: 'writer', version: '1.0.0' });
  await writer.connect(
    new StreamableHTTPClientTransport(new URL(h.hostUrl('localhost', '/api/mcp')), {
      requestInit: { headers: { Authorization: `Bearer ${userKey}` } },
    }),
  );
  try {
    const asked = await call(writer, 'ask_community', {
      community: 'acme',
      category: 'support',
      title: 'Is there a Helm chart for Hamlet?',
      body: 'We deploy on Kubernetes and would like a chart.',
    });
    assert.equal(asked.isError, false, JSON.stringify(asked.structuredContent));
    assert.equal(asked.structuredContent.status, 'applied');
    assert.equal(asked.structuredContent.topic.author.kind, 'person');
    assert.equal(asked.structuredContent.topic.author.name, 'Grace Hopper');
  } finally {
    await writer.close();
  }
});

test('find_community finds a community by its name and description before it has any post', async () => {
  await h.services.communities.create(systemActor('test'), {
    slug: 'quokka-keepers',
    name: 'Quokka keepers',
    description: 'Feeding and housing quokkas in captivity',
  });
  const found = await call(reader, 'find_community', { subject: 'housing quokkas' });
  const first = found.structuredContent.communities[0];
  assert.equal(first.slug, 'quokka-keepers');
  assert.equal(first.matches, 0, 'no content yet: matched on its description alone');
  assert.ok(first.score > 0);
});

test('a private community is invisible from the network', async () => {
  const search = await call(reader, 'search_network', { query: 'Project Falcon launch checklist' });
  assert.ok(
    !search.structuredContent.results.some(
      (r: { community: string }) => r.community === 'skunkworks',
    ),
  );
  for (const [tool, args] of [
    ['get_community', { community: 'skunkworks' }],
    ['search_network', { query: 'falcon', communities: ['skunkworks'] }],
    ['get_topic', { community: 'skunkworks', topic: 'project-falcon-launch-checklist' }],
  ] as const) {
    const r = await call(reader, tool, args);
    assert.equal(r.isError, true, tool);
    assert.equal(r.structuredContent.code, 'not_found', tool);
  }
  const found = await call(reader, 'find_community', { subject: 'project falcon skunkworks' });
  assert.ok(
    !found.structuredContent.communities.some((c: { slug: string }) => c.slug === 'skunkworks'),
  );
});

test('a 2026-07-28 client (the v2 SDK, pinned) reads the network and asks, mirroring `community` into Mcp-Param-Community', async () => {
  const { Client: ClientV2, StreamableHTTPClientTransport: TransportV2 } =
    await import('@modelcontextprotocol/client');
  const sent: string[] = [];
  const watching: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const res = await fetch(input, init);
    if (headers.get('mcp-method') === 'tools/call')
      sent.push(
        `${headers.get('mcp-name')}:${headers.get('mcp-param-community') ?? '-'}:${res.status}`,
      );
    return res;
  };
  const client = new ClientV2(
    { name: 'modern-outsider', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new TransportV2(new URL(h.hostUrl('localhost', '/api/mcp')), {
      fetch: watching,
      requestInit: { headers: { Authorization: `Bearer ${userKey}` } },
    }),
  );
  try {
    const described = (await client.callTool({
      name: 'get_community',
      arguments: { community: 'acme' },
    })) as Result;
    assert.equal(described.structuredContent.slug, 'acme');
    const asked = (await client.callTool({
      name: 'ask_community',
      arguments: {
        community: 'acme',
        category: 'support',
        title: 'Is there a dark mode for the forum pages?',
        body: 'Our agents link people to topic pages at night. Is there a dark theme for the web pages?',
      },
    })) as Result;
    assert.equal(asked.isError, false, JSON.stringify(asked.structuredContent));
    // A call made before the client has read tools/list goes without the header: the server refuses
    // it (400, -32020), the client reads the tool list and retries with the header, as the spec says.
    assert.deepEqual(
      sent.filter((s) => s.endsWith(':200')),
      ['get_community:acme:200', 'ask_community:acme:200'],
    );
    assert.ok(
      sent.filter((s) => !s.endsWith(':200')).every((s) => s.endsWith(':-:400')),
      sent.join(' '),
    );
  } finally {
    await client.close();
  }
});

test('a 2026-07-28 search that asked for logs hears what it covered and found, on its own stream', async () => {
  const res = await fetch(h.hostUrl('localhost', '/api/mcp'), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'search_network',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'search_network',
        arguments: { query: 'PostgreSQL' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/logLevel': 'info',
        },
      },
    }),
  });
  const messages = (await readSse(res)).map((e) => JSON.parse(e.data));
  assert.match(
    messages.find((m) => m.method === 'notifications/message')?.params.data,
    /^Searched every public community: \d+ result/,
  );
  assert.equal(messages.at(-1).result.resultType, 'complete');
});
