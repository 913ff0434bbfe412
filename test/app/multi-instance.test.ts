// Two Hamlet instances over one PostgreSQL: a session opened on one is served by the other, and a
// notification raised on one reaches the event stream held open on the other (LISTEN/NOTIFY bus).
import '../helpers/localhost-dns.mjs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { INITIALIZE, raw, readSse, rpc } from '../mcp/http-client.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

const setup = await freshPostgresDatabase('instances');

if (!setup.ok) {
  if (setup.fail) test('two instances over one PostgreSQL', () => assert.fail(`CI=true but ${setup.reason}`));
  else test('two instances over one PostgreSQL', { skip: setup.reason }, () => {});
} else {
  let a: TestHamlet;
  let b: TestHamlet;
  let communityId: string;
  before(async () => {
    a = await startTestHamlet({ DATABASE_URL: setup.url });
    b = await startTestHamlet({ DATABASE_URL: setup.url });
    communityId = (await a.store.communities.create({ slug: 'acme', name: 'Acme', visibility: 'public' })).id;
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
    assert.equal((await rpc(onB, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': sid })).status, 200);

    // The client's event stream is held open by instance B.
    const stream = await fetch(onB, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } });
    assert.equal(stream.status, 200);
    let received = false;
    const reading = readSse(stream, (events) => (received = events.some((e) => e.data.includes('list_changed'))), 8000);
    // Instance A announces; repeated until B has it, since B's LISTEN connection may still be starting.
    for (let i = 0; i < 40 && !received; i++) {
      assert.equal(await a.mcp.engine.notifyListChanged(`community:${communityId}`, 'tools'), 1);
      await new Promise((r) => setTimeout(r, 200));
    }
    const events = await reading;
    const messages = events.filter((e) => e.data).map((e) => JSON.parse(e.data));
    assert.ok(messages.length >= 1);
    assert.ok(messages.every((m) => m.method === 'notifications/tools/list_changed'), JSON.stringify(messages));
    assert.match(events.at(-1)!.id!, /^main\.\d+$/);

    assert.equal((await raw(onA, { method: 'DELETE', headers: { 'mcp-session-id': sid } })).status, 204);
    assert.equal((await rpc(onB, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': sid })).status, 404);
  });
}
