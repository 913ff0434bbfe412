// The stateless Streamable HTTP contract of the Hamlet agent documentation ("Transport", "Methods",
// "How failures arrive"), checked over raw HTTP: status codes, headers and bodies, line by line.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, type FixtureServer } from '../conformance/fixture-server.ts';
import { INITIALIZE, raw, rpc } from './http-client.ts';

let server: FixtureServer;
let url: string;
before(async () => {
  server = await startFixtureServer();
  url = server.url;
});
after(() => server.close());

describe('framing and status codes', () => {
  test('one POST, one JSON response with content-type application/json', async () => {
    const res = await rpc(url, { jsonrpc: '2.0', id: 7, method: 'ping' });
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type']!, /^application\/json/);
    assert.deepEqual(res.json(), { jsonrpc: '2.0', id: 7, result: {} });
  });

  test('Accept: application/json alone, or no Accept at all, gets JSON', async () => {
    for (const accept of ['application/json', undefined]) {
      const res = await rpc(
        url,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        accept ? { accept } : {},
      );
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type']!, /^application\/json/);
    }
  });

  test('a notification-only POST is answered 202 with an empty body', async () => {
    const res = await rpc(url, { jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(res.status, 202);
    assert.equal(res.text, '');
    const batch = await rpc(url, [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    ]);
    assert.equal(batch.status, 202);
    assert.equal(batch.text, '');
  });

  test('GET without a session is 405 with allow: POST, OPTIONS', async () => {
    const res = await raw(url, { headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'POST, OPTIONS');
    const del = await raw(url, { method: 'DELETE' });
    assert.equal(del.status, 405);
    assert.equal(del.headers.allow, 'POST, OPTIONS');
  });

  test('OPTIONS is 204 with the CORS headers of SPEC §9', async () => {
    const res = await raw(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'POST' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['access-control-allow-methods'], 'GET, POST, DELETE, OPTIONS');
    for (const h of [
      'Content-Type',
      'Authorization',
      'X-API-Key',
      'Mcp-Session-Id',
      'MCP-Protocol-Version',
      'Last-Event-ID',
    ]) {
      assert.ok(res.headers['access-control-allow-headers']!.split(', ').includes(h), h);
    }
    assert.match(res.headers['access-control-expose-headers']!, /Mcp-Session-Id/);
  });

  test('CORS headers are on POST responses too', async () => {
    const res = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'ping' });
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.match(res.headers['access-control-expose-headers']!, /Mcp-Session-Id/);
  });

  test('a body over the limit is 413; a content-type that is not JSON is 415', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(1_100_000) },
    });
    const res = await rpc(url, big);
    assert.equal(res.status, 413);
    assert.match(res.json().error.message, /exceeds 1000000 bytes/);
    const form = await raw(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    assert.equal(form.status, 415);
  });

  test('a host that is not ours is refused (DNS rebinding)', async () => {
    const res = await rpc(url, INITIALIZE(), {
      host: 'evil.example.com',
      origin: 'http://evil.example.com',
    });
    assert.equal(res.status, 404);
    assert.deepEqual(res.json().error, {
      code: -32600,
      message: 'This request did not resolve to an MCP endpoint.',
    });
  });
});

describe('protocol versions', () => {
  for (const v of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
    test(`initialize echoes ${v} in the result and the mcp-protocol-version header`, async () => {
      const res = await rpc(url, INITIALIZE(v));
      assert.equal(res.json().result.protocolVersion, v);
      assert.equal(res.headers['mcp-protocol-version'], v);
    });
  }

  test('an unknown requested version is answered with the preferred one', async () => {
    const res = await rpc(url, INITIALIZE('1999-01-01'));
    assert.equal(res.json().result.protocolVersion, '2025-11-25');
    assert.equal(res.headers['mcp-protocol-version'], '2025-11-25');
  });

  test('every response carries mcp-protocol-version, echoing a supported request header', async () => {
    const res = await rpc(
      url,
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'mcp-protocol-version': '2025-03-26' },
    );
    assert.equal(res.headers['mcp-protocol-version'], '2025-03-26');
    const bad = await rpc(url, '{nope');
    assert.ok(bad.headers['mcp-protocol-version']);
  });

  test('an unsupported MCP-Protocol-Version header is 400 and names the supported ones', async () => {
    const res = await rpc(
      url,
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'mcp-protocol-version': '2023-01-01' },
    );
    assert.equal(res.status, 400);
    assert.match(
      res.json().error.message,
      /Unsupported MCP-Protocol-Version: 2023-01-01.*2025-11-25/,
    );
  });
});

describe('the JSON-RPC error table', () => {
  test('-32700 Invalid JSON. with HTTP 400', async () => {
    const res = await rpc(url, '{"jsonrpc": "2.0", "id": 1,');
    assert.equal(res.status, 400);
    assert.deepEqual(res.json(), {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Invalid JSON.' },
    });
  });

  test('-32600 Not a valid JSON-RPC 2.0 message. / Missing method. / Empty batch.', async () => {
    assert.deepEqual((await rpc(url, { hello: 'world' })).json().error, {
      code: -32600,
      message: 'Not a valid JSON-RPC 2.0 message.',
    });
    assert.deepEqual((await rpc(url, { jsonrpc: '2.0', id: 3 })).json(), {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32600, message: 'Missing method.' },
    });
    const empty = await rpc(url, []);
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.json().error, { code: -32600, message: 'Empty batch.' });
  });

  test('-32601 Unknown method: / Unknown tool:', async () => {
    assert.deepEqual(
      (await rpc(url, { jsonrpc: '2.0', id: 1, method: 'tools/frobnicate' })).json().error,
      { code: -32601, message: 'Unknown method: tools/frobnicate' },
    );
    const tool = await rpc(url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'no_such_tool', arguments: {} },
    });
    assert.deepEqual(tool.json().error, { code: -32601, message: 'Unknown tool: no_such_tool' });
  });

  test('-32602 Expected { name, arguments }.', async () => {
    for (const params of [
      {},
      { name: 42 },
      { name: 'hamlet_echo', arguments: 'x' },
      { name: 'hamlet_echo', arguments: [1] },
    ]) {
      const res = await rpc(url, { jsonrpc: '2.0', id: 9, method: 'tools/call', params });
      assert.deepEqual(
        res.json().error,
        { code: -32602, message: 'Expected { name, arguments }.' },
        JSON.stringify(params),
      );
    }
  });
});

describe('batches', () => {
  test('a JSON array is answered by an array, in request order, with per-element errors', async () => {
    const res = await rpc(url, [
      { jsonrpc: '2.0', id: 'a', method: 'hamlet_wait_is_not_a_method' },
      {
        jsonrpc: '2.0',
        id: 'b',
        method: 'tools/call',
        params: { name: 'hamlet_wait', arguments: { ms: 100 } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'c', method: 'ping' },
      { not: 'rpc' },
    ]);
    assert.equal(res.status, 200);
    const body = res.json();
    assert.ok(Array.isArray(body));
    assert.deepEqual(
      body.map((r: { id: unknown }) => r.id),
      ['a', 'b', 'c', null],
    );
    assert.equal(body[0].error.code, -32601);
    assert.equal(body[1].result.content[0].text, 'waited 100 ms');
    assert.deepEqual(body[2].result, {});
    assert.equal(body[3].error.message, 'Not a valid JSON-RPC 2.0 message.');
  });

  test('a batch over the limit is refused as a whole', async () => {
    const res = await rpc(
      url,
      Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })),
    );
    assert.equal(res.status, 400);
    assert.match(res.json().error.message, /at most 100 messages/);
  });
});

describe('tool results', () => {
  test('structuredContent and the same JSON pretty-printed in content[0].text', async () => {
    const res = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'hamlet_echo', arguments: { message: 'hi', times: 2 } },
    });
    const result = res.json().result;
    assert.equal(result.isError, false);
    assert.deepEqual(result.structuredContent, { echoed: ['hi', 'hi'] });
    assert.equal(result.content[0].type, 'text');
    assert.equal(result.content[0].text, JSON.stringify({ echoed: ['hi', 'hi'] }, null, 2));
  });

  test('a tool failure is a result with isError, {error, code}, and the text in content', async () => {
    const res = await rpc(url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'test_error_handling', arguments: {} },
    });
    assert.equal(res.status, 200);
    const result = res.json().result;
    assert.equal(result.isError, true);
    assert.deepEqual(result.structuredContent, {
      error: 'This tool intentionally returns an error for testing',
      code: 'internal',
    });
    assert.equal(result.content[0].text, 'This tool intentionally returns an error for testing');
  });

  test('an argument-schema failure carries error only, no code, and names the field', async () => {
    const res = await rpc(url, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'hamlet_echo', arguments: { message: '', times: 9, extra: 1 } },
    });
    const result = res.json().result;
    assert.equal(result.isError, true);
    assert.deepEqual(Object.keys(result.structuredContent), ['error']);
    assert.match(result.structuredContent.error, /^Invalid arguments for tool "hamlet_echo": /);
    assert.match(result.structuredContent.error, /message:/);
    assert.match(result.structuredContent.error, /times:/);
    assert.match(result.structuredContent.error, /extra/);
  });

  test('output that breaks the declared outputSchema is caught as an internal failure', async () => {
    const res = await rpc(url, {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'hamlet_bad_output', arguments: {} },
    });
    const result = res.json().result;
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.code, 'internal');
  });

  test('tools/list passes JSON Schema 2020-12 through unchanged, with outputSchema and annotations', async () => {
    const res = await rpc(url, { jsonrpc: '2.0', id: 5, method: 'tools/list' });
    const tools: Array<Record<string, any>> = res.json().result.tools;
    const raw2020 = tools.find((t) => t.name === 'json_schema_2020_12_tool')!;
    assert.equal(raw2020.inputSchema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(raw2020.inputSchema.properties.address, { $ref: '#/$defs/address' });
    assert.equal(raw2020.inputSchema.additionalProperties, false);
    const echo = tools.find((t) => t.name === 'hamlet_echo')!;
    assert.equal(echo.inputSchema.additionalProperties, false);
    assert.equal(echo.inputSchema.properties.times.default, 1);
    assert.equal(echo.outputSchema.type, 'object');
    assert.deepEqual(echo.outputSchema.anyOf[0].required, ['echoed']);
    assert.deepEqual(
      echo.outputSchema.anyOf[1].required,
      ['error'],
      'a failure shape is declared too',
    );
    assert.deepEqual(echo.annotations, { readOnlyHint: true, idempotentHint: true });
    assert.equal(echo.title, 'Echo');
  });
});

describe('prompts, resources, completion without a session', () => {
  test('prompts/get interpolates arguments and refuses missing required ones', async () => {
    const ok = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'prompts/get',
      params: { name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } },
    });
    assert.equal(
      ok.json().result.messages[0].content.text,
      "Prompt with arguments: arg1='a', arg2='b'",
    );
    const missing = await rpc(url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'prompts/get',
      params: { name: 'test_prompt_with_arguments', arguments: { arg1: 'a' } },
    });
    assert.equal(missing.json().error.code, -32602);
    assert.match(missing.json().error.message, /arg2/);
  });

  test('resources/read resolves templates; an unknown URI is -32002', async () => {
    const t = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: { uri: 'test://template/42/data' },
    });
    assert.deepEqual(JSON.parse(t.json().result.contents[0].text), {
      id: '42',
      templateTest: true,
      data: 'Data for ID: 42',
    });
    const missing = await rpc(url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/read',
      params: { uri: 'test://nothing' },
    });
    assert.equal(missing.json().error.code, -32002);
  });

  test('the surface around hook can refuse content methods while lists stay open', async () => {
    const headers = { authorization: 'Bearer forbidden' };
    const read = await rpc(
      url,
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'test://static-text' } },
      headers,
    );
    assert.equal(read.json().error.message, 'This key may not read here.');
    const list = await rpc(url, { jsonrpc: '2.0', id: 2, method: 'resources/list' }, headers);
    assert.ok(list.json().result.resources.length > 0);
  });

  test('completion/complete filters by prefix', async () => {
    const res = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'completion/complete',
      params: {
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'par' },
      },
    });
    assert.deepEqual(res.json().result.completion, {
      values: ['paris', 'park', 'party'],
      total: 3,
      hasMore: false,
    });
  });

  test('resources/subscribe without a session explains how to get one', async () => {
    const res = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/subscribe',
      params: { uri: 'test://watched-resource' },
    });
    assert.match(res.json().error.message, /need a session/);
  });
});

describe('sessions over raw HTTP', () => {
  test('initialize returns Mcp-Session-Id; an unknown session id is 404; DELETE ends it', async () => {
    const init = await rpc(url, INITIALIZE('2025-11-25'));
    const sid = init.headers['mcp-session-id']!;
    assert.match(sid, /^[A-Za-z0-9_-]{20,}$/);
    const ping = await rpc(
      url,
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { 'mcp-session-id': sid },
    );
    assert.equal(ping.status, 200);
    assert.equal(ping.headers['mcp-session-id'], sid);
    const del = await raw(url, { method: 'DELETE', headers: { 'mcp-session-id': sid } });
    assert.equal(del.status, 204);
    const after = await rpc(
      url,
      { jsonrpc: '2.0', id: 3, method: 'ping' },
      { 'mcp-session-id': sid },
    );
    assert.equal(after.status, 404);
    assert.equal(after.json().error.code, -32001);
    const unknown = await raw(url, {
      headers: { 'mcp-session-id': 'nope', accept: 'text/event-stream' },
    });
    assert.equal(unknown.status, 404);
  });

  test('a request without the session header is still served statelessly', async () => {
    await rpc(url, INITIALIZE());
    const res = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'hamlet_echo', arguments: { message: 'x' } },
    });
    assert.deepEqual(res.json().result.structuredContent, { echoed: ['x'] });
    assert.equal(res.headers['mcp-session-id'], undefined);
  });
});
