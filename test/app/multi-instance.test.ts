// Two Hamlet instances over one PostgreSQL: a session opened on one is served by the other, a
// notification raised on one reaches the event stream held open on the other, and a 2026-07-28
// subscriptions/listen stream on one hears about a post written through the other (LISTEN/NOTIFY bus).
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { INITIALIZE, raw, readSse, rpc } from '../mcp/http-client.ts';
import { waitFor } from '../helpers/wait.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

const setup = await freshPostgresDatabase('instances');

if (!setup.ok) {
  if (setup.fail)
    test('two instances over one PostgreSQL', () => assert.fail(`CI=true but ${setup.reason}`));
  else test('two instances over one PostgreSQL', { skip: setup.reason }, () => {});
} else {
  let a: TestHamlet;
  let b: TestHamlet;
  let communityId: string;
  before(async () => {
    a = await startTestHamlet({ DATABASE_URL: setup.url });
    b = await startTestHamlet({ DATABASE_URL: setup.url });
    communityId = (
      await a.store.communities.create({ slug: 'acme', name: 'Acme', visibility: 'public' })
    ).id;
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await setup.drop();
  });

  test('a session opened on A is served by B; B streams what A announces; a DELETE on A ends it on B', async () => {
    const onA = a.hostUrl('acme.localhost', '/api/mcp');
    const onB = b.hostUrl('acme.localhost', '/api/mcp');
    const sid = (await rpc(onA, INITIALIZE('2025-11-25'))).headers['mcp-session-id']!;
    assert.equal(
      (await rpc(onB, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': sid })).status,
      200,
    );

    // The client's event stream is held open by instance B.
    const stream = await fetch(onB, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sid },
    });
    assert.equal(stream.status, 200);
    let received = false;
    const reading = readSse(
      stream,
      (events) => (received = events.some((e) => e.data.includes('list_changed'))),
      8000,
    );
    // Instance A announces; repeated until B has it, since B's LISTEN connection may still be starting.
    await waitFor(
      async () => {
        if (received) return true;
        assert.equal(await a.mcp.engine.notifyListChanged(`community:${communityId}`, 'tools'), 1);
        return false;
      },
      { timeoutMs: 8000, intervalMs: 200, message: 'instance B to relay the announcement' },
    );
    const events = await reading;
    const messages = events.filter((e) => e.data).map((e) => JSON.parse(e.data));
    assert.ok(messages.length >= 1);
    assert.ok(
      messages.every((m) => m.method === 'notifications/tools/list_changed'),
      JSON.stringify(messages),
    );
    assert.match(events.at(-1)!.id!, /^main\.\d+$/);

    assert.equal(
      (await raw(onA, { method: 'DELETE', headers: { 'mcp-session-id': sid } })).status,
      204,
    );
    assert.equal(
      (await rpc(onB, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': sid })).status,
      404,
    );
  });

  test('a listen stream on B hears resources/updated for a reply written through A', async () => {
    const community = (await a.store.communities.getBySlug('acme'))!;
    const { key } = await a.services.agents.create(systemActor('test'), community, {
      name: 'lister',
      scopes: ['topic:create', 'post:create'],
    });
    await a.store.community(community.id).categories.create({
      slug: 'support',
      name: 'Support',
      description: '',
      kind: 'discussion',
      position: 1,
    });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = (method: string, name?: string) => ({
      authorization: `Bearer ${key}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    });
    const call = (name: string, args: Record<string, unknown>) =>
      rpc(
        a.hostUrl('acme.localhost', '/api/mcp'),
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: args, _meta: meta },
        },
        headers('tools/call', name),
      );
    const created = (
      await call('create_topic', {
        category: 'support',
        title: 'Listen across instances works?',
        body: 'Does a listen stream on one instance hear the other?',
      })
    ).json();
    const topicId: string = created.result.structuredContent.topic.id;
    const uri = `hamlet://acme/topics/${topicId}`;

    const controller = new AbortController();
    const stream = await fetch(b.hostUrl('acme.localhost', '/api/mcp'), {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...headers('subscriptions/listen'),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'l1',
        method: 'subscriptions/listen',
        params: { _meta: meta, notifications: { resourceSubscriptions: [uri] } },
      }),
    });
    let heard = false;
    const reading = readSse(
      stream,
      (events) => (heard = events.some((e) => e.data.includes('resources/updated'))),
      10_000,
    );
    // Repeated until B has it, since B's LISTEN connection may still be starting.
    let i = 0;
    await waitFor(
      async () => {
        if (heard) return true;
        const body = `Reply number ${i++} from instance A.`;
        assert.equal(
          (await call('reply_to_topic', { topic: topicId, body })).json().result.isError,
          false,
        );
        return false;
      },
      { timeoutMs: 10_000, intervalMs: 250, message: 'instance B to relay the update' },
    );
    const messages = (await reading).map((e) => JSON.parse(e.data));
    controller.abort();
    assert.equal(messages[0].method, 'notifications/subscriptions/acknowledged');
    assert.deepEqual(messages[0].params.notifications, { resourceSubscriptions: [uri] });
    const update = messages.find((m) => m.method === 'notifications/resources/updated');
    assert.equal(update?.params.uri, uri);
    assert.equal(update?.params._meta['io.modelcontextprotocol/subscriptionId'], 'l1');
  });
}
