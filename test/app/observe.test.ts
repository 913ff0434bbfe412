// What an operator sees of a running Hamlet: one access-log line per request on every face (an MCP
// request's line names its method, tool, community, caller and outcome, and carries the request id
// the response echoed; reads are recorded there, not in the audit log), no secret a client sent in any line, and Prometheus text at GET /metrics for
// the metrics token (401 without it, 403 with another, 404 when no token is configured) and on
// HAMLET_METRICS_PORT without one, counting each MCP tools/call by tool and status; on PostgreSQL
// the pool's connections too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { raw, type RawResponse } from '../mcp/http-client.ts';
import { startRestFixture, type Fixture } from '../rest/fixture.ts';
import { freePort } from '../helpers/serve.ts';
import { waitFor } from '../helpers/wait.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { startTestHamlet } from './helpers.ts';
import { DISPLAY_PREFIX_LENGTH, sha256Hex } from '../../src/domain/identity/secrets.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
let f: Fixture;
let metricsPort: number;

before(async () => {
  metricsPort = await freePort();
  f = await startRestFixture({
    LOG_LEVEL: 'info',
    HAMLET_METRICS_TOKEN: TOKEN,
    HAMLET_METRICS_PORT: String(metricsPort),
  });
});
after(() => f?.stop());

const mcpUrl = () => f.h.hostUrl('acme.localhost', '/api/mcp');

async function mcp(body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(mcpUrl(), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${f.keys.reader}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

type Line = Record<string, unknown>;
const lines = (): Line[] =>
  f.h.logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
/** The access-log line of a request (written as it ends, maybe just after the response). */
const accessLine = (requestId: string) =>
  waitFor(() => lines().find((l) => l.msg === 'request' && l.requestId === requestId), {
    message: `an access-log line with request id ${requestId}`,
  });

/** Prometheus text exposition: each sample's name, labels and value. */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}
const sample = (text: string, name: string, labels: Record<string, string>) =>
  samples(text).find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;

test('every MCP request gets an access-log line with the request id it echoed', async () => {
  const calls: { body: unknown; headers?: Record<string, string>; expect: Line }[] = [
    { body: { jsonrpc: '2.0', id: 1, method: 'ping' }, expect: { method: 'ping', status: 200 } },
    {
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      headers: { 'x-request-id': 'client-chosen.id-42' },
      expect: { method: 'tools/list', requestId: 'client-chosen.id-42' },
    },
    {
      body: {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'search_community', arguments: { query: 'webhooks' } },
      },
      expect: {
        method: 'tools/call',
        tool: 'search_community',
        community: 'acme',
        key: f.keys.reader.slice(0, DISPLAY_PREFIX_LENGTH),
      },
    },
    {
      body: {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'get_topic', arguments: { topic: 'no-such-topic-anywhere' } },
      },
      expect: { tool: 'get_topic', code: 'not_found', status: 200 },
    },
    {
      body: { jsonrpc: '2.0', id: 5, method: 'no/such/method' },
      headers: { 'x-request-id': 'not a sane id: spaces' },
      expect: { method: 'no/such/method', code: '-32601' },
    },
    {
      // The first is the slow one: the line names it all the same.
      body: [
        {
          jsonrpc: '2.0',
          id: 6,
          method: 'tools/call',
          params: { name: 'search_community', arguments: { query: 'webhooks' } },
        },
        { jsonrpc: '2.0', id: 7, method: 'ping' },
      ],
      expect: { method: 'tools/call', tool: 'search_community', messages: 2, operation: 'batch' },
    },
    {
      body: {
        jsonrpc: '2.0',
        id: 8,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
          },
        },
      },
      headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      expect: { method: 'server/discover', status: 200 },
    },
  ];
  const reader = (await f.h.store.identity.credentials.findAgentKeyByHash(
    sha256Hex(f.keys.reader),
  ))!;
  for (const call of calls) {
    const res = await mcp(call.body, call.headers);
    const id = res.headers['x-request-id'];
    assert.ok(id, `x-request-id echoed for ${JSON.stringify(call.body)}`);
    if (call.headers?.['x-request-id']?.includes(' '))
      assert.notEqual(id, call.headers['x-request-id'], 'an insane request id is replaced');
    const line = await accessLine(id);
    assert.equal(line.face, 'mcp');
    assert.equal(line.path, '/api/mcp');
    assert.equal(typeof line.operation, 'string');
    assert.equal(line.level, 30, 'level info');
    assert.equal(line.community, 'acme');
    assert.equal(typeof line.ms, 'number');
    for (const [k, v] of Object.entries(call.expect)) assert.equal(line[k], v, `${k} of ${id}`);
    // A caller authenticated by the pipeline (a tool call) is named; its key never.
    if (line.tool) assert.equal(line.actor, `agent:${reader.agentId}`);
  }
});

test('a read leaves no audit row: its access line says who read what, and how it went', async () => {
  const before = (await f.h.store.identity.audit.list(f.acme.id, { limit: 500 })).items.length;
  const res = await mcp({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_topic', arguments: { topic: 'no-such-topic-at-all' } },
  });
  const page = await raw(f.h.hostUrl('acme.localhost', '/'), {
    headers: { cookie: f.keys.session.cookie, 'x-request-id': 'web-read-1' },
  });
  assert.equal(page.status, 200);
  const rest = await raw(f.h.hostUrl('acme.localhost', '/api/v1/categories'), {
    headers: { authorization: `Bearer ${f.keys.owner}`, 'x-request-id': 'rest-read-1' },
  });
  assert.equal(rest.status, 200);
  const mcpLine = await accessLine(res.headers['x-request-id']!);
  assert.deepEqual(
    [mcpLine.tool, mcpLine.community, mcpLine.key, mcpLine.code],
    ['get_topic', 'acme', f.keys.reader.slice(0, DISPLAY_PREFIX_LENGTH), 'not_found'],
  );
  const owner = (await f.h.store.people.getByEmail('owner@example.com'))!;
  const webLine = await accessLine('web-read-1');
  assert.equal(webLine.actor, `person:${owner.id}`);
  const restLine = await accessLine('rest-read-1');
  assert.deepEqual(
    [restLine.actor, restLine.key, restLine.status],
    [`person:${owner.id}`, f.keys.owner.slice(0, DISPLAY_PREFIX_LENGTH), 200],
  );
  const after = (await f.h.store.identity.audit.list(f.acme.id, { limit: 500 })).items.length;
  assert.equal(after, before, 'no audit row for the three reads');
});

test('REST and web requests get their line too, and no secret reaches the log', async () => {
  const secretQuery = 'query-secret-5f1e2d3c4b5a';
  const password = 'body-password-9a8b7c6d';
  const rest = await raw(f.h.hostUrl('acme.localhost', `/api/v1/topics?token=${secretQuery}`), {
    headers: { authorization: `Bearer ${f.keys.writer}`, 'x-request-id': 'rest-1' },
  });
  assert.equal(rest.headers['x-request-id'], 'rest-1');
  const web = await raw(f.h.hostUrl('acme.localhost', '/signin'), {
    method: 'POST',
    headers: {
      cookie: f.keys.session.cookie,
      'content-type': 'application/x-www-form-urlencoded',
      'x-request-id': 'web-1',
    },
    body: `email=owner%40example.com&password=${password}`,
  });
  assert.equal(web.headers['x-request-id'], 'web-1');
  const restLine = await accessLine('rest-1');
  assert.equal(restLine.face, 'rest');
  assert.equal(restLine.community, 'acme');
  assert.equal(restLine.path, '/api/v1/topics');
  assert.equal((await accessLine('web-1')).face, 'web');
  const log = f.h.logs.join('');
  const sessionToken = f.keys.session.cookie.split('=')[1]!;
  for (const secret of [f.keys.reader, f.keys.writer, sessionToken, secretQuery, password])
    assert.ok(!log.includes(secret), `the log never carries ${secret.slice(0, 6)}…`);
});

test('GET /metrics answers the token only, as Prometheus text counting tools/call by tool and status', async () => {
  const url = f.h.hostUrl('localhost', '/metrics');
  assert.equal((await raw(url)).status, 401);
  const wrong = await raw(url, {
    headers: { authorization: 'Bearer not-the-metrics-token-at-all' },
  });
  assert.equal(wrong.status, 403);
  assert.ok(!wrong.text.includes(TOKEN));
  const ok = await raw(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(ok.status, 200);
  assert.match(ok.headers['content-type']!, /^text\/plain/);
  const text = ok.text;
  const mcpCount = (tool: string, status: string) =>
    sample(text, 'hamlet_mcp_requests_total', { method: 'tools/call', tool, status });
  assert.ok((mcpCount('search_community', 'ok') ?? 0) >= 1, 'search_community counted ok');
  assert.ok((mcpCount('get_topic', 'not_found') ?? 0) >= 1, 'get_topic counted not_found');
  const junk = { method: 'unknown', status: '-32601' };
  assert.equal(sample(text, 'hamlet_mcp_requests_total', junk), 1, 'an unknown method: one label');
  assert.ok(!text.includes('no/such/method'), 'names clients invent are not labels');
  assert.ok(
    (sample(text, 'hamlet_mcp_tool_errors_total', { tool: 'get_topic', code: 'not_found' }) ?? 0) >=
      1,
  );
  assert.ok(
    (sample(text, 'hamlet_http_requests_total', {
      face: 'mcp',
      operation: 'ping',
      status: '200',
    }) ?? 0) >= 1,
  );
  assert.ok(
    (sample(text, 'hamlet_http_request_duration_seconds_count', { face: 'rest' }) ?? 0) >= 1,
  );
  for (const name of [
    'hamlet_mcp_sessions',
    'hamlet_mcp_open_streams',
    'hamlet_webhook_queue_depth',
    'nodejs_eventloop_lag_seconds',
  ])
    assert.notEqual(sample(text, name, {}), undefined, `${name} is exposed`);
  assert.ok(!text.includes(f.keys.reader), 'no key in the metrics');

  // Its own port serves the same metrics without a token.
  const own = await raw(`http://127.0.0.1:${metricsPort}/metrics`);
  assert.equal(own.status, 200);
  assert.ok((sample(own.text, 'hamlet_mcp_requests_total', { tool: 'get_topic' }) ?? 0) >= 1);
});

test('without HAMLET_METRICS_TOKEN, /metrics does not exist', async () => {
  const h = await startTestHamlet();
  try {
    const r = await raw(h.hostUrl('localhost', '/metrics'), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(r.status, 404);
  } finally {
    await h.stop();
  }
});

test('on PostgreSQL the pool is in the metrics', async (t) => {
  const setup = await freshPostgresDatabase('metrics');
  if (!setup.ok) {
    if (setup.fail) assert.fail(`CI=true but ${setup.reason}`);
    return t.skip(setup.reason);
  }
  const h = await startTestHamlet({ DATABASE_URL: setup.url, HAMLET_METRICS_TOKEN: TOKEN });
  try {
    const scrape = () =>
      raw(h.hostUrl('localhost', '/metrics'), { headers: { authorization: `Bearer ${TOKEN}` } });
    // The second scrape finds the first one's connections idle: an idle instance waits for none,
    // and the scrape's own queries are not counted as waiting or in use.
    await scrape();
    const r = await scrape();
    assert.equal(r.status, 200);
    assert.ok(sample(r.text, 'hamlet_pg_pool_connections', { state: 'idle' })! > 0);
    assert.equal(sample(r.text, 'hamlet_pg_pool_connections', { state: 'in_use' }), 0);
    assert.equal(sample(r.text, 'hamlet_pg_pool_waiting', {}), 0);
    assert.equal(sample(r.text, 'hamlet_webhook_queue_depth', {}), 0);
    assert.equal(sample(r.text, 'hamlet_mail_queue', { status: 'pending' }), 0);
  } finally {
    await h.stop();
    await setup.drop();
  }
});
