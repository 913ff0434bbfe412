// The official MCP SDK client (Client + StreamableHTTPClientTransport) against Hamlet's MCP stack on
// a listening server: stateless use, session use, notifications, cancellation, server-to-client
// requests, and resuming a stream that dropped.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { startFixtureServer, type FixtureServer } from '../conformance/fixture-server.ts';
import { fixtureEvents } from '../conformance/fixture-surface.ts';
import { waitFor } from '../helpers/wait.ts';
import { INITIALIZE, readSse, rpc } from './http-client.ts';

let server: FixtureServer;
before(async () => {
  server = await startFixtureServer();
});
after(() => server.close());

const clients: Client[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

async function connect(
  options: { stateless?: boolean; capabilities?: Record<string, unknown> } = {},
) {
  const client = new Client(
    { name: 'hamlet-test', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
  // A stateless client is one that never sees (so never echoes) the session id.
  const fetchStateless: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const headers = new Headers(res.headers);
    headers.delete('mcp-session-id');
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    fetch: options.stateless ? fetchStateless : undefined,
    reconnectionOptions: {
      initialReconnectionDelay: 50,
      maxReconnectionDelay: 200,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 5,
    },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const until = async (check: () => boolean | Promise<boolean>, ms = 3000) =>
  waitFor(check, { timeoutMs: ms });

describe('stateless use', () => {
  test('a client that never echoes the session id lists and calls tools', async () => {
    const { client, transport } = await connect({ stateless: true });
    assert.equal(transport.sessionId, undefined);
    assert.equal(client.getServerVersion()?.name, 'hamlet-conformance-fixture');
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'hamlet_echo'));
    const result = await client.callTool({
      name: 'hamlet_echo',
      arguments: { message: 'stateless' },
    });
    assert.deepEqual(result.structuredContent, { echoed: ['stateless'] });
  });
});

describe('session use', () => {
  test('initialize opens a session the client keeps; it is bound to the endpoint', async () => {
    const { client, transport } = await connect();
    assert.ok(transport.sessionId);
    const session = await server.stack.engine.sessions.get(transport.sessionId!);
    assert.equal(session?.scope, 'fixture');
    assert.equal(session?.clientInfo?.name, 'hamlet-test');
    await client.ping();
  });

  test('logging/setLevel filters notifications/message for the session', async () => {
    const { client } = await connect();
    const messages: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(String(n.params.data));
    });
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(messages, []);
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(messages, [
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
  });

  test("notifications/progress arrive with the request's progress token", async () => {
    const { client } = await connect();
    const seen: number[] = [];
    const result = await client.callTool(
      { name: 'hamlet_wait', arguments: { ms: 200 } },
      CallToolResultSchema,
      {
        onprogress: (p) => seen.push(p.progress),
      },
    );
    assert.equal((result.content as Array<{ text: string }>)[0]!.text, 'waited 200 ms');
    assert.deepEqual(seen, [1, 2, 3, 4]);
  });

  test('notifications/cancelled aborts the handler', async () => {
    const { client } = await connect();
    const abort = new AbortController();
    let progressed = false;
    const call = client.callTool(
      { name: 'hamlet_wait', arguments: { ms: 5000, label: 'cancel-me' } },
      CallToolResultSchema,
      {
        signal: abort.signal,
        onprogress: () => (progressed = true),
      },
    );
    await until(() => progressed); // the handler is running
    abort.abort('user gave up');
    await assert.rejects(call);
    await until(() => fixtureEvents.aborted.includes('cancel-me'));
  });

  test('elicitation: the server asks the client mid-call and uses the answer', async () => {
    const { client } = await connect({ capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      assert.equal(req.params.message, 'Which colour?');
      return { action: 'accept', content: { response: 'green' } };
    });
    const result = await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Which colour?' },
    });
    assert.equal(
      (result.content as Array<{ text: string }>)[0]!.text,
      'User response: action=accept, content={"response":"green"}',
    );
  });

  test('a client without the elicitation capability is not asked', async () => {
    const { client } = await connect();
    const result = await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Which colour?' },
    });
    assert.equal(result.isError, true);
  });

  test("list_changed and resources/updated reach the session's GET stream", async () => {
    const { client, transport } = await connect();
    const events: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      events.push('tools');
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      events.push(`updated ${n.params.uri}`);
    });
    await client.subscribeResource({ uri: 'test://watched-resource' });
    await until(() => server.stack.hub.liveSessionIds().has(transport.sessionId!));
    assert.equal(
      await server.stack.engine.notifyResourceUpdated('fixture', 'test://watched-resource'),
      1,
    );
    assert.equal(
      await server.stack.engine.notifyResourceUpdated('fixture', 'test://static-text'),
      0,
    );
    await server.stack.engine.notifyListChanged('fixture', 'tools');
    await until(() => events.length === 2);
    assert.deepEqual(events, ['updated test://watched-resource', 'tools']);
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
    assert.equal(
      await server.stack.engine.notifyResourceUpdated('fixture', 'test://watched-resource'),
      0,
    );
  });

  test('a stream the server closes mid-call is resumed and the result arrives', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
    assert.match(
      (result.content as Array<{ text: string }>)[0]!.text,
      /Reconnection test completed successfully/,
    );
  });

  test('terminateSession (DELETE) ends the session on the server', async () => {
    const { transport } = await connect();
    const id = transport.sessionId!;
    await transport.terminateSession();
    assert.equal(await server.stack.engine.sessions.get(id), undefined);
  });
});

describe('resuming a dropped stream with Last-Event-ID', () => {
  test('events after the last one seen are replayed, once, then the result', async () => {
    const init = await rpc(server.url, INITIALIZE('2025-11-25'));
    const sid = init.headers['mcp-session-id']!;
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sid,
    };
    const drop = new AbortController();
    const post = await fetch(server.url, {
      method: 'POST',
      headers,
      signal: drop.signal,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'w',
        method: 'tools/call',
        params: { name: 'hamlet_wait', arguments: { ms: 400 }, _meta: { progressToken: 't' } },
      }),
    });
    assert.equal(post.headers.get('content-type'), 'text/event-stream');
    // Read the priming event and the first progress event, then drop the connection.
    const first = await readSse(post, (ev) =>
      ev.some((e) => e.data.includes('notifications/progress')),
    );
    drop.abort();
    assert.equal(first[0]!.data, '', 'the first event primes the stream');
    assert.ok(first[0]!.retry! > 0);
    const lastSeen = first.at(-1)!.id!;

    // The tool finishes while nobody listens.
    await until(
      async () =>
        (await server.stack.engine.sessions.eventsAfter(sid, lastSeen))?.finished === true,
    );
    const resumed = await fetch(server.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': lastSeen },
    });
    assert.equal(resumed.status, 200);
    const rest = await readSse(resumed, (ev) => ev.some((e) => e.data.includes('"result"')));
    const messages = rest.map((e) => JSON.parse(e.data));
    const progress = messages
      .filter((m) => m.method === 'notifications/progress')
      .map((m) => m.params.progress);
    const seenProgress = first.filter((e) => e.data).map((e) => JSON.parse(e.data).params.progress);
    assert.deepEqual([...seenProgress, ...progress], [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(messages.at(-1).id, 'w');
    assert.equal(messages.at(-1).result.content[0].text, 'waited 400 ms');
    const ids = [...first, ...rest].map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'no event is sent twice');
  });
});

describe('idle expiry', () => {
  test('a session unused for longer than the idle limit is gone', async () => {
    const short = await startFixtureServer(0, { sessionIdleMs: 300 });
    try {
      const init = await rpc(short.url, INITIALIZE());
      const sid = init.headers['mcp-session-id']!;
      assert.equal(
        (await rpc(short.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': sid }))
          .status,
        200,
      );
      await until(async () => (await short.stack.engine.sessions.get(sid)) === undefined, 4000);
      assert.equal(
        (await rpc(short.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': sid }))
          .status,
        404,
      );
    } finally {
      await short.close();
    }
  });
});
