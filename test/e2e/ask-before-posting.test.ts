// Before a question that closely matches a solved topic is posted, the asker is asked "post
// anyway?": a 2026-07-28 client through input_required, a 2025 client that declared elicitation
// through elicitation/create over its session; a client that cannot answer is never held up (the
// question is posted and the matches come with the result). Progress and logs of the call reach a
// client that asked for them, on the call's own stream.
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { readSse } from '../mcp/http-client.ts';

let h: TestHamlet;
let acme: Community;
let key: string;
let url: string;
const closers: Array<() => Promise<void>> = [];
before(async () => {
  h = await startTestHamlet({}, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
  ({ key } = await h.services.agents.create(systemActor('test'), acme, {
    name: 'asker',
    scopes: ['topic:create'],
  }));
  url = h.hostUrl('acme.localhost', '/api/mcp');
});
after(async () => {
  for (const close of closers) await close().catch(() => {});
  await h?.stop();
});

const SOLVED_TITLE = 'How do I run Hamlet on PostgreSQL instead of SQLite?';
let n = 0;
/** A question that says again what the solved PostgreSQL topic answers. */
const again = () => ({
  category: 'support',
  title: `Running Hamlet on PostgreSQL instead of SQLite (${++n})`,
  body: 'How do I run Hamlet on PostgreSQL instead of the default SQLite database? Which DATABASE_URL do I set?',
});

async function v2(answer: (message: string) => Record<string, unknown>, seen: string[]) {
  const client = new ClientV2(
    { name: 'asker-v2', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    seen.push(String((request.params as { message: string }).message));
    return answer(String((request.params as { message: string }).message)) as never;
  });
  await client.connect(
    new TransportV2(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  closers.push(() => client.close());
  return client;
}

async function v1(capabilities: Record<string, unknown>) {
  const client = new ClientV1({ name: 'asker-v1', version: '1.0.0' }, { capabilities });
  await client.connect(
    new TransportV1(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  closers.push(() => client.close());
  return client;
}

test('2026-07-28: input_required names the solved topic; "no" posts nothing and returns the matches', async () => {
  const seen: string[] = [];
  const client = await v2(() => ({ action: 'accept', content: { post_anyway: false } }), seen);
  const r = (await client.callTool({ name: 'create_topic', arguments: again() })) as {
    structuredContent: any;
    isError: boolean;
  };
  assert.equal(r.isError, false);
  assert.equal(r.structuredContent.status, 'not_posted');
  assert.equal(r.structuredContent.similar_solved[0].title, SOLVED_TITLE);
  assert.equal(seen.length, 1);
  assert.match(
    seen[0]!,
    /may already answer it[\s\S]*How do I run Hamlet on PostgreSQL instead of SQLite\?[\s\S]*Post the question anyway\?/,
  );
  assert.equal(
    (await h.store.community(acme.id).topics.list({ sort: 'latest', limit: 100 })).items.filter(
      (t) => t.title.startsWith('Running Hamlet on PostgreSQL'),
    ).length,
    0,
  );
});

test('2026-07-28: "post anyway" posts it', async () => {
  const client = await v2(() => ({ action: 'accept', content: { post_anyway: true } }), []);
  const r = (await client.callTool({ name: 'create_topic', arguments: again() })) as {
    structuredContent: any;
  };
  assert.equal(r.structuredContent.status, 'applied');
  assert.match(r.structuredContent.topic.title, /^Running Hamlet on PostgreSQL/);
});

test('2026-07-28 over raw HTTP: a client that declared no elicitation is not asked, the matches come with the result', async () => {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'create_topic',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'create_topic',
        arguments: again(),
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          progressToken: 'p',
          'io.modelcontextprotocol/logLevel': 'info',
        },
      },
    }),
  });
  const messages = (await readSse(res)).map((e) => JSON.parse(e.data));
  const progress = messages
    .filter((m) => m.method === 'notifications/progress')
    .map((m) => m.params.progress);
  assert.deepEqual(progress, [1, 2, 3]);
  assert.ok(
    messages.some(
      (m) => m.method === 'notifications/message' && /closely match/.test(m.params.data),
    ),
  );
  const result = messages.at(-1).result;
  assert.equal(result.structuredContent.status, 'applied');
  assert.equal(result.structuredContent.similar_solved[0].title, SOLVED_TITLE);
});

test('2025-11-25 with elicitation: the server asks over the session (elicitation/create) and honours the answer', async () => {
  const client = await v1({ elicitation: {} });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { post_anyway: false } };
  });
  const r = (await client.callTool({ name: 'create_topic', arguments: again() })) as {
    structuredContent: any;
  };
  assert.equal(asked.length, 1);
  assert.match(asked[0]!, /Post the question anyway\?/);
  assert.equal(r.structuredContent.status, 'not_posted');
});

test('2025-11-25 without elicitation: never held up; posted with the matches in the result', async () => {
  const client = await v1({});
  const r = (await client.callTool({ name: 'create_topic', arguments: again() })) as {
    structuredContent: any;
  };
  assert.equal(r.structuredContent.status, 'applied');
  assert.equal(r.structuredContent.similar_solved[0].title, SOLVED_TITLE);
});

test('a question nothing answers yet is posted at once, with no matches', async () => {
  const seen: string[] = [];
  const client = await v2(() => ({ action: 'decline' }), seen);
  const r = (await client.callTool({
    name: 'create_topic',
    arguments: {
      category: 'support',
      title: 'Does the import keep attachments of mails?',
      body: 'When importing an mbox, are the MIME attachments of each mail kept anywhere?',
    },
  })) as { structuredContent: any };
  assert.equal(r.structuredContent.status, 'applied');
  assert.equal(r.structuredContent.similar_solved, undefined);
  assert.equal(seen.length, 0);
});
