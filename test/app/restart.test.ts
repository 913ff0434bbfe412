// Sessions live in the database: a restarted server (or another instance) still knows them, with
// their negotiated version, log level and resource subscriptions.
import '../helpers/localhost-dns.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemActor } from '../../src/domain/actor.ts';
import { INITIALIZE, readSse, rpc } from '../mcp/http-client.ts';
import { waitFor } from '../helpers/wait.ts';
import { startTestHamlet } from './helpers.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

test('an MCP session survives a restart, with its log level and subscriptions', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-restart-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}` };
  try {
    const first = await startTestHamlet(env, { keepDatabase: true, demo: true });
    const acme = (await first.store.communities.getBySlug('acme'))!;
    const { key } = await first.services.agents.create(systemActor('test'), acme, {
      name: 'watcher',
      scopes: ['post:create'],
    });
    const auth = { authorization: `Bearer ${key}` };
    const { topics } = await first.services.content.listTopics(systemActor('test'), acme, {});
    const [watched, other] = topics.map((t) => `hamlet://acme/topics/${t.id}`);
    const url = first.hostUrl('acme.localhost', '/api/mcp');
    const init = await rpc(url, INITIALIZE('2025-06-18'), auth);
    const sid = init.headers['mcp-session-id']!;
    const session = { ...auth, 'mcp-session-id': sid };
    const send = async (u: string, id: number, method: string, params: object) =>
      (await rpc(u, { jsonrpc: '2.0', id, method, params }, session)).json();
    assert.deepEqual(await send(url, 2, 'logging/setLevel', { level: 'error' }), {
      jsonrpc: '2.0',
      id: 2,
      result: {},
    });
    assert.deepEqual((await send(url, 3, 'resources/subscribe', { uri: watched })).result, {});
    await first.stop();

    const second = await startTestHamlet(env, { keepDatabase: true });
    const stream = new AbortController();
    try {
      const url2 = second.hostUrl('acme.localhost', '/api/mcp');
      const ping = await rpc(url2, { jsonrpc: '2.0', id: 4, method: 'ping' }, session);
      assert.equal(ping.status, 200);
      assert.equal(
        ping.headers['mcp-protocol-version'],
        '2025-06-18',
        'the negotiated version is remembered',
      );
      const stored = await second.store.mcpSessions.get(sid);
      assert.equal(stored?.logLevel, 'error');
      assert.deepEqual(stored?.subscriptions, [watched]);

      // The restarted server tells the session about the topic it subscribed to before the
      // restart, and only that one: a reply to another topic comes first and must not be heard.
      const events = await fetch(url2, {
        headers: { ...session, accept: 'text/event-stream' },
        signal: stream.signal,
      });
      assert.equal(events.status, 200);
      await waitFor(() => second.mcp.hub.liveSessionIds().has(sid), {
        message: 'the session stream to open',
      });
      const reading = readSse(events, (e) => e.some((x) => x.data.includes('resources/updated')));
      const reply = (topic: string) =>
        writeApplied(second.services.writes, systemActor('test'), acme, 'post.create', {
          topic: topic.slice('hamlet://acme/topics/'.length),
          body: 'A reply after the restart.',
        });
      await reply(other!);
      await reply(watched!);
      const updates = (await reading)
        .filter((e) => e.data)
        .map((e) => JSON.parse(e.data) as { method?: string; params?: { uri: string } });
      assert.deepEqual(
        updates.filter((m) => m.method === 'notifications/resources/updated'),
        [{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: watched } }],
      );

      assert.equal(
        (
          await rpc(
            url2,
            { jsonrpc: '2.0', id: 5, method: 'ping' },
            { ...auth, 'mcp-session-id': 'forged' },
          )
        ).status,
        404,
      );
    } finally {
      stream.abort();
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
