// Agent journeys the scale-out test drives through the proxy while instances die. Each takes the
// community's MCP URL and an agent key, and a `midway` hook the test uses to kill an instance (it
// is told which instance holds the journey's event stream, from nginx's X-Upstream header).
//
// The 2025 session journey (initialize, a session, a resumable GET stream) and the 2026-07-28 one
// (stateless: server/discover, Mcp-Method and Mcp-Name headers, a subscriptions/listen stream).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { COMMUNITY_TOOLS } from '../../src/operations/catalogue.ts';
import { listedAsTool } from '../../src/operations/operation.ts';

/** The tools the demo community lists: the nine, then its toolsets' (it turns both on). */
const DEMO_TOOLS = COMMUNITY_TOOLS.filter((op) =>
  listedAsTool(op, ['feedback', 'moderation']),
).length;

export type Midway = (streamUpstream: string) => Promise<void>;

type Sse = {
  events: Array<{ id?: string; data: string }>;
  upstream: string;
  closed: Promise<void>;
  close(): void;
};

/** Opens an event stream (a GET, or a POST with `body`) and reads it in the background until it ends or is closed. */
async function openStream(
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Sse> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: body ? 'POST' : 'GET',
    body,
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  assert.equal(res.status, 200, `${body ? 'POST' : 'GET'} stream: ${res.status}`);
  const events: Sse['events'] = [];
  const closed = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let sep: number;
        while ((sep = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, sep);
          buffer = buffer.slice(sep + 2);
          const event: { id?: string; data: string } = { data: '' };
          for (const line of block.split('\n')) {
            if (line.startsWith('id:')) event.id = line.slice(3).trim();
            else if (line.startsWith('data:')) event.data += line.slice(5).trim();
          }
          if (event.id !== undefined || event.data) events.push(event);
        }
      }
    } catch {
      // aborted by us, or cut when the instance died
    }
  })();
  return {
    events,
    upstream: res.headers.get('x-upstream') ?? '',
    closed,
    close: () => controller.abort(),
  };
}

const until = async (check: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/**
 * initialize with a session → tools/list → search → subscribe to a topic → hold the event stream
 * (midway: its instance is killed) → the stream drops → reply (served by a live instance) →
 * resume the stream with Last-Event-ID on another instance and get the topic's update → read the
 * reply back → DELETE the session. Returns what it saw, for the report.
 */
export async function sessionJourney(
  url: string,
  key: string,
  midway: Midway,
  headers: Record<string, string> = {},
): Promise<{ steps: number; upstreams: string[] }> {
  const auth = { authorization: `Bearer ${key}`, ...headers };
  let id = 0;
  let sid = '';
  const upstreams: string[] = [];
  const post = async (method: string, params?: unknown, notification = false) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(sid ? { 'mcp-session-id': sid } : {}),
        ...auth,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        ...(notification ? {} : { id: ++id }),
        method,
        ...(params === undefined ? {} : { params }),
      }),
    });
    upstreams.push(res.headers.get('x-upstream') ?? '');
    return {
      status: res.status,
      headers: res.headers,
      body: res.status === 200 ? await res.json() : await res.text(),
    };
  };

  const init = await post('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'scale-out', version: '1' },
  });
  assert.equal(init.status, 200);
  sid = init.headers.get('mcp-session-id')!;
  assert.ok(sid, 'initialize returns a session');
  assert.equal((await post('notifications/initialized', undefined, true)).status, 202);
  // The demo turns its toolsets on: the nine, then their tools.
  assert.equal((await post('tools/list')).body.result.tools.length, DEMO_TOOLS);
  const found = await post('tools/call', {
    name: 'search_community',
    arguments: { query: 'webhook signature verification' },
  });
  const topicId = found.body.result.structuredContent.results[0].topic_id as string;
  assert.ok(topicId);
  const uri = `hamlet://acme/topics/${topicId}`;
  assert.ok((await post('resources/subscribe', { uri })).body.result, 'subscribed');

  const first = await openStream(url, { 'mcp-session-id': sid, ...auth });
  await until(() => first.events.length > 0, 5000, 'the stream primes');
  const lastId = first.events.at(-1)!.id!;
  await midway(first.upstream);
  await Promise.race([first.closed, new Promise((r) => setTimeout(r, 10_000))]);

  const body = `A reply written while ${first.upstream} is down (${randomUUID()}).`;
  const reply = await post('tools/call', {
    name: 'reply_to_topic',
    arguments: { topic: topicId, body, idempotency_key: randomUUID() },
  });
  assert.equal(reply.body.result.isError, false, JSON.stringify(reply.body));
  assert.equal(reply.body.result.structuredContent.status, 'applied');

  const resumed = await openStream(url, {
    'mcp-session-id': sid,
    'last-event-id': lastId,
    ...auth,
  });
  assert.notEqual(resumed.upstream, first.upstream, 'the stream resumes on another instance');
  const updated = () =>
    resumed.events.some(
      (e) => e.data.includes('notifications/resources/updated') && e.data.includes(uri),
    );
  await until(updated, 10_000, 'the resumed stream carries the topic update');
  resumed.close();

  const read = await post('tools/call', {
    name: 'get_topic',
    arguments: { topic: topicId, limit: 100 },
  });
  assert.ok(
    read.body.result.structuredContent.posts.some((p: { body?: string; markdown?: string }) =>
      JSON.stringify(p).includes(body.slice(0, 40)),
    ),
    'the reply reads back',
  );
  const end = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sid, ...auth } });
  assert.equal(end.status, 204);
  assert.equal((await post('ping')).status, 404, 'the session is gone on every instance');
  return { steps: id, upstreams: [...new Set(upstreams.filter(Boolean))] };
}

/**
 * The 2026-07-28 journey, no session anywhere: server/discover → tools/list → search → listen for
 * a topic's updates (midway: the instance holding the listen stream is killed) → the stream drops →
 * listen again (another instance) → reply, served by any live instance → the new listen stream hears
 * the topic's update (across instances, over PostgreSQL) → read the reply back.
 */
export async function journey2026(
  url: string,
  key: string,
  midway: Midway,
  headers: Record<string, string> = {},
): Promise<{ steps: number; upstreams: string[] }> {
  const auth = { authorization: `Bearer ${key}`, ...headers };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'scale-out', version: '1' },
  };
  let id = 0;
  const upstreams: string[] = [];
  const mirror = (method: string, params: Record<string, unknown>) => ({
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
  });
  const post = async (method: string, params: Record<string, unknown> = {}) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...mirror(method, params),
        ...auth,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method,
        params: { ...params, _meta: meta },
      }),
    });
    upstreams.push(res.headers.get('x-upstream') ?? '');
    assert.equal(res.status, 200, `${method}: HTTP ${res.status}`);
    assert.equal(res.headers.get('mcp-session-id'), null, 'no session in 2026-07-28');
    return (await res.json()) as { result: any };
  };
  const listen = async (uri: string) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: `listen-${++id}`,
      method: 'subscriptions/listen',
      params: { _meta: meta, notifications: { resourceSubscriptions: [uri] } },
    });
    const stream = await openStream(
      url,
      { 'content-type': 'application/json', ...mirror('subscriptions/listen', {}), ...auth },
      body,
    );
    await until(
      () => stream.events.some((e) => e.data.includes('notifications/subscriptions/acknowledged')),
      5000,
      'the listen stream is acknowledged',
    );
    upstreams.push(stream.upstream);
    return stream;
  };

  const discovered = await post('server/discover');
  assert.ok(discovered.result.supportedVersions.includes('2026-07-28'));
  assert.equal((await post('tools/list')).result.tools.length, DEMO_TOOLS);
  const found = await post('tools/call', {
    name: 'search_community',
    arguments: { query: 'webhook signature verification' },
  });
  const topicId = found.result.structuredContent.results[0].topic_id as string;
  const uri = `hamlet://acme/topics/${topicId}`;

  const first = await listen(uri);
  await midway(first.upstream);
  await Promise.race([first.closed, new Promise((r) => setTimeout(r, 10_000))]);

  const second = await listen(uri);
  assert.notEqual(
    second.upstream,
    first.upstream,
    'the new listen stream is held by a live instance',
  );
  const heard = () =>
    second.events.some(
      (e) => e.data.includes('notifications/resources/updated') && e.data.includes(uri),
    );
  const body = `A 2026 reply written after ${first.upstream} went down (${randomUUID()}).`;
  // The listening instance's LISTEN connection may still be catching up: write until it hears.
  for (let i = 0; i < 20 && !heard(); i++) {
    const reply = await post('tools/call', {
      name: 'reply_to_topic',
      arguments: {
        topic: topicId,
        body: i ? `${body} (${i})` : body,
        idempotency_key: randomUUID(),
      },
    });
    assert.equal(reply.result.structuredContent.status, 'applied', JSON.stringify(reply.result));
    const end = Date.now() + 500;
    while (!heard() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(heard(), 'the listen stream carries the topic update written through another instance');
  second.close();

  const read = await post('tools/call', {
    name: 'get_topic',
    arguments: { topic: topicId, limit: 100 },
  });
  assert.ok(
    JSON.stringify(read.result.structuredContent.posts).includes(body.slice(0, 40)),
    'the reply reads back',
  );
  return { steps: id, upstreams: [...new Set(upstreams.filter(Boolean))] };
}
