// Agent journeys the scale-out test drives through the proxy while instances die. Each takes the
// community's MCP URL and an agent key, and a `midway` hook the test uses to kill an instance (it
// is told which instance holds the journey's event stream, from nginx's X-Upstream header).
//
// The 2025 session journey is here. A 2026-07-28 journey (stateless: server/discover, Mcp-Method
// and Mcp-Name headers, subscriptions/listen) belongs beside it as `journey2026(url, key, midway)`,
// with the same shape; test/scale/scale-out.test.ts has its place waiting (a todo test).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

export type Midway = (streamUpstream: string) => Promise<void>;

type Sse = { events: Array<{ id?: string; data: string }>; upstream: string; closed: Promise<void>; close(): void };

/** Opens an event stream and keeps reading it in the background until it ends or is closed. */
async function openStream(url: string, headers: Record<string, string>): Promise<Sse> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  assert.equal(res.status, 200, `GET stream: ${res.status}`);
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
  return { events, upstream: res.headers.get('x-upstream') ?? '', closed, close: () => controller.abort() };
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
export async function sessionJourney(url: string, key: string, midway: Midway, headers: Record<string, string> = {}): Promise<{ steps: number; upstreams: string[] }> {
  const auth = { authorization: `Bearer ${key}`, ...headers };
  let id = 0;
  let sid = '';
  const upstreams: string[] = [];
  const post = async (method: string, params?: unknown, notification = false) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...(sid ? { 'mcp-session-id': sid } : {}), ...auth },
      body: JSON.stringify({ jsonrpc: '2.0', ...(notification ? {} : { id: ++id }), method, ...(params === undefined ? {} : { params }) }),
    });
    upstreams.push(res.headers.get('x-upstream') ?? '');
    return { status: res.status, headers: res.headers, body: res.status === 200 ? await res.json() : await res.text() };
  };

  const init = await post('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'scale-out', version: '1' } });
  assert.equal(init.status, 200);
  sid = init.headers.get('mcp-session-id')!;
  assert.ok(sid, 'initialize returns a session');
  assert.equal((await post('notifications/initialized', undefined, true)).status, 202);
  assert.equal((await post('tools/list')).body.result.tools.length, 9);
  const found = await post('tools/call', { name: 'search_community', arguments: { query: 'webhook signature verification' } });
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
  const reply = await post('tools/call', { name: 'reply_to_topic', arguments: { topic: topicId, body, idempotency_key: randomUUID() } });
  assert.equal(reply.body.result.isError, false, JSON.stringify(reply.body));
  assert.equal(reply.body.result.structuredContent.status, 'applied');

  const resumed = await openStream(url, { 'mcp-session-id': sid, 'last-event-id': lastId, ...auth });
  assert.notEqual(resumed.upstream, first.upstream, 'the stream resumes on another instance');
  const updated = () => resumed.events.some((e) => e.data.includes('notifications/resources/updated') && e.data.includes(uri));
  await until(updated, 10_000, 'the resumed stream carries the topic update');
  resumed.close();

  const read = await post('tools/call', { name: 'get_topic', arguments: { topic: topicId, limit: 100 } });
  assert.ok(read.body.result.structuredContent.posts.some((p: { body?: string; markdown?: string }) => JSON.stringify(p).includes(body.slice(0, 40))), 'the reply reads back');
  const end = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sid, ...auth } });
  assert.equal(end.status, 204);
  assert.equal((await post('ping')).status, 404, 'the session is gone on every instance');
  return { steps: id, upstreams: [...new Set(upstreams.filter(Boolean))] };
}
