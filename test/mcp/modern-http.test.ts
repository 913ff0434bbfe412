// The rules of MCP 2026-07-28 on the shared endpoint, one row each, over raw HTTP: the request
// headers (missing, mismatched, Base64), the `_meta` envelope, unsupported versions, unknown and
// removed methods, resultType and serverInfo on every result, caching hints, progress and logs on
// the request's own stream, input_required round trips with sealed state, subscriptions/listen.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, type FixtureServer } from '../conformance/fixture-server.ts';
import { fixtureEvents } from '../conformance/fixture-surface.ts';
import { waitFor } from '../helpers/wait.ts';
import { raw, readSse, rpc } from './http-client.ts';

let server: FixtureServer;
before(async () => {
  server = await startFixtureServer();
});
after(() => server.close());

const V = '2026-07-28';
const meta = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});
const NAMED: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** A conformant 2026 request: body with `_meta`, and the headers that mirror it. */
async function modern(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {},
  id: number | string = 1,
) {
  const body = { jsonrpc: '2.0', id, method, params: { _meta: meta(), ...params } };
  const name = NAMED[method] ? (params[NAMED[method]!] as string | undefined) : undefined;
  const base: Record<string, string | undefined> = {
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': V,
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
    ...headers,
  };
  return rpc(
    server.url,
    body,
    Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >,
  );
}

describe('headers mirror the body: anything missing or different is HTTP 400, -32020', () => {
  const cases: Array<[string, () => ReturnType<typeof modern>]> = [
    [
      'MCP-Protocol-Version missing',
      () => modern('tools/list', {}, { 'mcp-protocol-version': undefined }),
    ],
    ['Mcp-Method missing', () => modern('tools/list', {}, { 'mcp-method': undefined })],
    [
      'Mcp-Method different from the body',
      () => modern('tools/list', {}, { 'mcp-method': 'prompts/list' }),
    ],
    [
      'Mcp-Method differing only in case',
      () => modern('tools/list', {}, { 'mcp-method': 'TOOLS/LIST' }),
    ],
    [
      'Mcp-Name missing on tools/call',
      () =>
        modern(
          'tools/call',
          { name: 'test_simple_text', arguments: {} },
          { 'mcp-name': undefined },
        ),
    ],
    [
      'Mcp-Name naming another tool',
      () =>
        modern(
          'tools/call',
          { name: 'test_simple_text', arguments: {} },
          { 'mcp-name': 'test_image_content' },
        ),
    ],
    [
      'Mcp-Name missing on resources/read',
      () => modern('resources/read', { uri: 'test://static-text' }, { 'mcp-name': undefined }),
    ],
    [
      'Mcp-Name with broken Base64',
      () =>
        modern('prompts/get', { name: 'test_simple_prompt' }, { 'mcp-name': '=?base64?dGVzd!!?=' }),
    ],
    [
      'MCP-Protocol-Version different from _meta',
      () =>
        rpc(
          server.url,
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/list',
            params: { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) },
          },
          { 'mcp-protocol-version': V, 'mcp-method': 'tools/list' },
        ),
    ],
    [
      'Mcp-Param-Region missing while the argument is set',
      () => modern('tools/call', { name: 'test_custom_header', arguments: { region: 'eu-west' } }),
    ],
    [
      'Mcp-Param-Region different from the argument',
      () =>
        modern(
          'tools/call',
          { name: 'test_custom_header', arguments: { region: 'eu-west' } },
          { 'mcp-param-region': 'us-east' },
        ),
    ],
  ];
  for (const [name, send] of cases) {
    test(name, async () => {
      const res = await send();
      assert.equal(res.status, 400);
      assert.equal(res.json().error.code, -32020);
      assert.equal(res.json().id, 1, 'the error carries the request id');
    });
  }

  test('header names are case-insensitive, values trimmed, Base64 decoded', async () => {
    const ok = await modern(
      'prompts/get',
      { name: 'test_simple_prompt' },
      { 'mcp-name': `=?base64?${Buffer.from('test_simple_prompt').toString('base64')}?=` },
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.json().result.resultType, 'complete');
    const param = await modern(
      'tools/call',
      { name: 'test_custom_header', arguments: { region: 'eu-west' } },
      { 'Mcp-Param-Region': 'eu-west' },
    );
    assert.equal(param.json().result.content[0].text, 'Region: eu-west');
  });
});

describe('the envelope and the version', () => {
  test('a request naming 2026-07-28 in its header without _meta is 400, -32602', async () => {
    const res = await rpc(
      server.url,
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      { 'mcp-protocol-version': V, 'mcp-method': 'tools/list' },
    );
    assert.equal(res.status, 400);
    assert.deepEqual([res.json().id, res.json().error.code], [5, -32602]);
  });

  test('_meta without clientCapabilities is 400, -32602 naming it', async () => {
    const res = await rpc(
      server.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': V } },
      },
      { 'mcp-protocol-version': V, 'mcp-method': 'tools/list' },
    );
    assert.equal(res.status, 400);
    assert.match(res.json().error.message, /clientCapabilities/);
  });

  test('an unsupported version is 400, -32022, with the supported list and the requested one', async () => {
    const res = await rpc(
      server.url,
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'server/discover',
        params: { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) },
      },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'server/discover' },
    );
    assert.equal(res.status, 400);
    assert.equal(res.json().error.code, -32022);
    assert.deepEqual(res.json().error.data, {
      supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      requested: '2099-01-01',
    });
  });

  test('the legacy era is untouched: initialize still opens a session; no session on 2026 requests', async () => {
    const init = await rpc(server.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    });
    assert.equal(init.json().result.protocolVersion, '2025-11-25');
    assert.ok(init.headers['mcp-session-id']);
    const listed = await modern(
      'tools/list',
      {},
      { 'mcp-session-id': init.headers['mcp-session-id'] },
    );
    assert.equal(listed.headers['mcp-session-id'], undefined);
    assert.equal(listed.headers['mcp-protocol-version'], V);
  });

  test('a batch of 2026 requests is refused: one message per POST', async () => {
    const res = await rpc(
      server.url,
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }],
      { 'mcp-protocol-version': V },
    );
    assert.equal(res.status, 400);
    assert.equal(res.json().error.code, -32600);
  });
});

describe('methods and results', () => {
  test('server/discover lists every version, the capabilities, instructions, serverInfo and caching hints', async () => {
    const r = (await modern('server/discover')).json().result;
    assert.deepEqual(r.supportedVersions, [
      '2026-07-28',
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
      '2024-11-05',
    ]);
    assert.deepEqual(Object.keys(r.capabilities).sort(), [
      'completions',
      'extensions',
      'logging',
      'prompts',
      'resources',
      'tools',
    ]);
    // The fixture serves skills and has tools that run as tasks: both extensions are declared.
    assert.deepEqual(r.capabilities.extensions, {
      'io.modelcontextprotocol/skills': { directoryRead: true },
      'io.modelcontextprotocol/tasks': {},
    });
    assert.equal(r.resultType, 'complete');
    assert.equal(r._meta['io.modelcontextprotocol/serverInfo'].name, 'hamlet-conformance-fixture');
    assert.equal(r.cacheScope, 'public');
    assert.equal(typeof r.ttlMs, 'number');
  });

  for (const method of [
    'initialize',
    'ping',
    'logging/setLevel',
    'resources/subscribe',
    'no/such/method',
  ]) {
    test(`${method} is not a 2026 method: 404, -32601 with the request id`, async () => {
      const res = await modern(method, {}, {}, 'req-7');
      assert.equal(res.status, 404);
      assert.deepEqual([res.json().id, res.json().error.code], ['req-7', -32601]);
    });
  }

  test('every result has resultType; lists and reads have ttlMs and cacheScope, calls do not', async () => {
    for (const method of [
      'tools/list',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
    ]) {
      const r = (await modern(method)).json().result;
      assert.equal(r.resultType, 'complete', method);
      assert.equal(r.cacheScope, 'public', method);
      assert.ok(Number.isInteger(r.ttlMs) && r.ttlMs >= 0, method);
    }
    const read = (await modern('resources/read', { uri: 'test://static-text' })).json().result;
    assert.deepEqual(
      [read.resultType, read.cacheScope, typeof read.ttlMs],
      ['complete', 'public', 'number'],
    );
    const call = (await modern('tools/call', { name: 'test_simple_text', arguments: {} })).json()
      .result;
    assert.equal(call.resultType, 'complete');
    assert.equal(call.ttlMs, undefined);
  });

  test('tools/list lists tools in a fixed order', async () => {
    const a = (await modern('tools/list')).json().result.tools.map((t: { name: string }) => t.name);
    const b = (await modern('tools/list')).json().result.tools.map((t: { name: string }) => t.name);
    assert.deepEqual(a, b);
  });

  test('an unknown resource is -32602 (not -32002), an unknown tool -32602', async () => {
    assert.equal(
      (await modern('resources/read', { uri: 'test://nope' })).json().error.code,
      -32602,
    );
    assert.equal(
      (await modern('tools/call', { name: 'nope', arguments: {} })).json().error.code,
      -32602,
    );
  });

  test('a tool that needs an undeclared client capability: 400, -32021 naming it', async () => {
    const res = await modern('tools/call', { name: 'test_missing_capability', arguments: {} });
    assert.equal(res.status, 400);
    assert.equal(res.json().error.code, -32021);
    assert.deepEqual(res.json().error.data, { requiredCapabilities: { sampling: {} } });
  });
});

describe("the request's own stream: progress and logs", () => {
  test('progress arrives on the response stream before the result when a progressToken is given', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': V,
        'mcp-method': 'tools/call',
        'mcp-name': 'test_tool_with_progress',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'test_tool_with_progress',
          arguments: {},
          _meta: meta({ progressToken: 'tok' }),
        },
      }),
    });
    assert.match(res.headers.get('content-type')!, /text\/event-stream/);
    const events = (await readSse(res)).map((e) => JSON.parse(e.data));
    assert.deepEqual(
      events.filter((m) => m.method).map((m) => m.params.progress),
      [0, 50, 100],
    );
    assert.equal(events.at(-1).id, 3);
    assert.equal(events.at(-1).result.resultType, 'complete');
  });

  test('logs only when _meta asks for them, at or above the level asked', async () => {
    const quiet = await modern('tools/call', { name: 'test_logging_tool', arguments: {} });
    assert.match(quiet.headers['content-type']!, /application\/json/);
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': V,
        'mcp-method': 'tools/call',
        'mcp-name': 'test_logging_tool',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: {
          name: 'test_logging_tool',
          arguments: {},
          _meta: meta({ 'io.modelcontextprotocol/logLevel': 'info' }),
        },
      }),
    });
    const logs = (await readSse(res))
      .map((e) => JSON.parse(e.data))
      .filter((m) => m.method === 'notifications/message');
    assert.equal(logs.length, 2);
    const errorsOnly = await modern('tools/call', {
      name: 'test_logging_tool',
      arguments: {},
      _meta: meta({ 'io.modelcontextprotocol/logLevel': 'error' }),
    });
    assert.match(
      errorsOnly.headers['content-type']!,
      /application\/json/,
      'nothing at error level: a plain JSON answer',
    );
  });
});

test('closing the response stream cancels the request: the handler sees its signal abort', async () => {
  const controller = new AbortController();
  const res = await fetch(server.url, {
    method: 'POST',
    signal: controller.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': V,
      'mcp-method': 'tools/call',
      'mcp-name': 'hamlet_wait',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: {
        name: 'hamlet_wait',
        arguments: { ms: 3000, label: 'modern-close' },
        _meta: meta({ progressToken: 1 }),
      },
    }),
  });
  await readSse(res, (events) => events.length >= 1, 2000);
  controller.abort();
  await waitFor(() => fixtureEvents.aborted.includes('modern-close'), {
    message: 'the handler to see its signal abort',
  });
});

describe('input_required round trips', () => {
  const asking = {
    _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } }),
  };

  test('a question, then the answer on a retry with the sealed state', async () => {
    const first = (
      await modern('tools/call', {
        name: 'test_input_required_result_multi_round',
        arguments: {},
        ...asking,
      })
    ).json().result;
    assert.equal(first.resultType, 'input_required');
    assert.ok(first.inputRequests.step1);
    const second = (
      await modern(
        'tools/call',
        {
          name: 'test_input_required_result_multi_round',
          arguments: {},
          ...asking,
          inputResponses: { step1: { action: 'accept', content: { name: 'Ada' } } },
          requestState: first.requestState,
        },
        {},
        2,
      )
    ).json().result;
    assert.ok(second.inputRequests.step2);
    const third = (
      await modern(
        'tools/call',
        {
          name: 'test_input_required_result_multi_round',
          arguments: {},
          ...asking,
          inputResponses: { step2: { action: 'accept', content: { color: 'green' } } },
          requestState: second.requestState,
        },
        {},
        3,
      )
    ).json().result;
    assert.deepEqual([third.resultType, third.content[0].text], ['complete', 'Ada likes green.']);
  });

  test('tampered, foreign or misapplied state is refused with -32602', async () => {
    const first = (
      await modern('tools/call', {
        name: 'test_input_required_result_tampered_state',
        arguments: {},
        ...asking,
      })
    ).json().result;
    const [payload, mac] = first.requestState.split('.');
    const tampered = `${Buffer.from(JSON.stringify({ b: {}, s: { round: 2 }, e: 9e15 })).toString('base64url')}.${mac}`;
    const retry = (
      state: string,
      headers: Record<string, string> = {},
      name = 'test_input_required_result_tampered_state',
    ) =>
      modern(
        'tools/call',
        {
          name,
          arguments: {},
          ...asking,
          inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
          requestState: state,
        },
        headers,
      );
    assert.equal((await retry(tampered)).json().error.code, -32602);
    assert.equal(
      (await retry(`${payload}.${mac}`, { authorization: 'Bearer someone-else' })).json().error
        .code,
      -32602,
      'another caller',
    );
    assert.equal(
      (await retry(`${payload}.${mac}`, {}, 'test_input_required_result_request_state')).json()
        .error.code,
      -32602,
      'another tool',
    );
    assert.equal(
      (await retry(`${payload}.${mac}`)).json().result.content[0].text,
      'state verified',
    );
  });

  test('a client that did not declare elicitation is never asked: -32021 rather than an undeclared input request', async () => {
    const res = await modern('tools/call', {
      name: 'test_input_required_result_elicitation',
      arguments: {},
    });
    assert.equal(res.status, 400);
    assert.equal(res.json().error.code, -32021);
  });
});

describe('subscriptions/listen', () => {
  test('acknowledged first, then only the notifications asked for, tagged with the listen request id', async () => {
    const controller = new AbortController();
    const res = await fetch(server.url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': V,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'listen-1',
        method: 'subscriptions/listen',
        params: {
          _meta: meta(),
          notifications: {
            toolsListChanged: true,
            resourceSubscriptions: ['test://watched-resource', 'test://nope'],
          },
        },
      }),
    });
    let heard = 0;
    const reading = readSse(res, (events) => (heard = events.length) >= 3, 5000);
    await waitFor(() => heard >= 1, { message: 'the listen acknowledgement' });
    await server.stack.engine.notifyListChanged('fixture', 'prompts');
    await server.stack.engine.notifyListChanged('fixture', 'tools');
    await server.stack.engine.notifyResourceUpdated('fixture', 'test://static-text');
    await server.stack.engine.notifyResourceUpdated('fixture', 'test://watched-resource');
    const messages = (await reading).map((e) => JSON.parse(e.data));
    controller.abort();
    assert.deepEqual(
      messages.map((m) => m.method),
      [
        'notifications/subscriptions/acknowledged',
        'notifications/tools/list_changed',
        'notifications/resources/updated',
      ],
    );
    assert.deepEqual(messages[0].params.notifications, {
      toolsListChanged: true,
      resourceSubscriptions: ['test://watched-resource'],
    });
    for (const m of messages)
      assert.equal(m.params._meta['io.modelcontextprotocol/subscriptionId'], 'listen-1');
    assert.equal(messages[2].params.uri, 'test://watched-resource');
  });
});

test('CORS lets a browser send the 2026 headers', async () => {
  const res = await raw(server.url, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://app.example',
      'access-control-request-headers': 'mcp-method, mcp-name',
    },
  });
  for (const h of ['Mcp-Method', 'Mcp-Name', 'MCP-Protocol-Version'])
    assert.ok(res.headers['access-control-allow-headers']!.split(', ').includes(h), h);
});
