// What every MCP SessionStore must do: the in-memory one, and the database one on SQLite and on
// PostgreSQL (sessions.test.ts runs this once per implementation).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { SessionRecord, SessionStore } from '../../src/mcp/session-store.ts';

export type SessionStoreFactory = (limits: {
  maxSessions: number;
  maxEventsPerStream: number;
}) => Promise<{ store: SessionStore; close(): Promise<void> }>;

const id = () => randomBytes(9).toString('base64url');
const session = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  id: id(),
  scope: 'scope-a',
  protocolVersion: '2025-11-25',
  clientCapabilities: { elicitation: {} },
  subscriptions: [],
  clientInfo: { name: 'agent', version: '1' },
  createdAt: 1_000,
  lastSeenAt: 1_000,
  ...over,
});

export function defineSessionStoreContract(name: string, factory: SessionStoreFactory): void {
  describe(`MCP session store contract (${name})`, () => {
    let store: SessionStore;
    let close: () => Promise<void>;
    before(async () => {
      ({ store, close } = await factory({ maxSessions: 1000, maxEventsPerStream: 3 }));
    });
    after(() => close());

    test('a session round-trips with everything negotiated', async () => {
      const s = session({ scope: `rt-${id()}` });
      await store.create(s);
      assert.deepEqual(await store.get(s.id), s);
      await store.update(s.id, { logLevel: 'warning', subscriptions: ['hamlet://acme/topics/1'] });
      const got = await store.get(s.id);
      assert.equal(got?.logLevel, 'warning');
      assert.deepEqual(got?.subscriptions, ['hamlet://acme/topics/1']);
      assert.deepEqual(await store.listIds(s.scope), [s.id]);
      assert.equal(await store.get('no-such-session'), undefined);
    });

    test('delete removes the session and its events', async () => {
      const s = session();
      await store.create(s);
      await store.appendEvent(s.id, 'st', { jsonrpc: '2.0', method: 'x' });
      assert.equal(await store.delete(s.id), true);
      assert.equal(await store.get(s.id), undefined);
      assert.equal(await store.eventsAfter(s.id, 'st.0'), undefined);
      assert.equal(await store.delete(s.id), false);
    });

    test('sweep removes idle sessions only; touch keeps a session alive', async () => {
      const scope = `sweep-${id()}`;
      const idle = session({ scope, lastSeenAt: 5_000 });
      const busy = session({ scope, lastSeenAt: 5_000 });
      await store.create(idle);
      await store.create(busy);
      await store.touch(busy.id, 9_000_000_000_000);
      assert.ok((await store.sweep(8_000_000_000_000, 1000)) >= 1);
      assert.deepEqual(await store.listIds(scope), [busy.id]);
      await store.delete(busy.id);
    });

    test('subscribers are found by resource, and follow subscription changes and deletes', async () => {
      const scope = `subs-${id()}`;
      const a = session({ scope });
      const b = session({ scope });
      const other = session({ scope: `${scope}-other` });
      for (const s of [a, b, other]) await store.create(s);
      await store.update(a.id, {
        subscriptions: ['hamlet://acme/topics/1', 'hamlet://acme/topics/2'],
      });
      await store.update(b.id, { subscriptions: ['hamlet://acme/topics/1'] });
      await store.update(other.id, { subscriptions: ['hamlet://acme/topics/1'] });
      assert.deepEqual(
        (await store.subscribers(scope, 'hamlet://acme/topics/1')).sort(),
        [a.id, b.id].sort(),
      );
      await store.update(b.id, { subscriptions: [] });
      assert.deepEqual(await store.subscribers(scope, 'hamlet://acme/topics/1'), [a.id]);
      await store.delete(a.id);
      assert.deepEqual(await store.subscribers(scope, 'hamlet://acme/topics/2'), []);
      await store.delete(b.id);
      await store.delete(other.id);
    });

    test('sessions are capped per address and per owner: the longest idle of that address or owner makes room', async () => {
      const ip = `10.0.0.${Math.floor(Math.random() * 250)}-${id()}`;
      const caps = { perClientIp: 3, perOwner: 2 };
      const byIp = [0, 1, 2, 3].map((i) => session({ clientIp: ip, lastSeenAt: 1_000 + i }));
      for (const s of byIp) await store.create(s, caps);
      assert.equal(await store.get(byIp[0]!.id), undefined, 'the longest idle of the address went');
      for (const s of byIp.slice(1)) assert.ok(await store.get(s.id));
      const owner = `owner-${id()}`;
      const byOwner = [0, 1, 2].map((i) =>
        session({ owner, clientIp: `${ip}-${i}`, lastSeenAt: 2_000 + i }),
      );
      for (const s of byOwner) await store.create(s, caps);
      assert.equal(await store.get(byOwner[0]!.id), undefined);
      assert.equal((await store.get(byOwner[2]!.id))?.owner, owner);
      for (const s of [...byIp, ...byOwner]) await store.delete(s.id);
    });

    test('sweep works in batches of the size asked for', async () => {
      const made = [0, 1, 2, 3, 4].map((i) => session({ lastSeenAt: 100 + i }));
      for (const s of made) await store.create(s);
      assert.equal(await store.sweep(200, 2), 2);
      assert.equal(await store.get(made[0]!.id), undefined);
      assert.ok(await store.get(made[2]!.id), 'a batch stops at its size');
      let rounds = 0;
      while ((await store.sweep(200, 2)) === 2) rounds++;
      for (const s of made) assert.equal(await store.get(s.id), undefined);
      assert.ok(rounds >= 1);
    });

    test('the shared secret is the same on every call, 32 random bytes', async () => {
      const a = await store.sharedSecret();
      assert.equal(a.length, 32);
      assert.deepEqual(await store.sharedSecret(), a);
    });

    test('events get increasing ids per stream and replay after a given id', async () => {
      const s = session();
      await store.create(s);
      await store.openStream(s.id, 'post1');
      assert.deepEqual(await store.eventsAfter(s.id, 'post1.0'), {
        streamId: 'post1',
        events: [],
        finished: false,
      });
      const a = await store.appendEvent(s.id, 'post1', {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progress: 1 },
      });
      const b = await store.appendEvent(s.id, 'post1', {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progress: 2 },
      });
      const other = await store.appendEvent(s.id, 'main', {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
      });
      assert.deepEqual([a, b, other], ['post1.1', 'post1.2', 'main.1']);
      const after = await store.eventsAfter(s.id, a);
      assert.deepEqual(after, {
        streamId: 'post1',
        events: [
          {
            id: 'post1.2',
            message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 2 } },
          },
        ],
        finished: false,
      });
      await store.finishStream(s.id, 'post1');
      assert.equal((await store.eventsAfter(s.id, b))?.finished, true);
      assert.equal(await store.eventsAfter(s.id, 'unknown.3'), undefined);
      assert.equal(await store.eventsAfter(s.id, 'garbage'), undefined);
    });

    test('a stream keeps only its most recent events', async () => {
      const s = session();
      await store.create(s);
      for (let i = 1; i <= 5; i++)
        await store.appendEvent(s.id, 'st', { jsonrpc: '2.0', method: `m${i}` });
      const all = await store.eventsAfter(s.id, 'st.0');
      assert.deepEqual(
        all?.events.map((e) => e.id),
        ['st.3', 'st.4', 'st.5'],
      );
    });

    test('events of an unknown session are not kept', async () => {
      assert.equal(await store.appendEvent('ghost', 'st', { jsonrpc: '2.0', method: 'x' }), 'st.0');
      assert.equal(await store.eventsAfter('ghost', 'st.0'), undefined);
    });

    test('concurrent appends to one stream never reuse an id', async () => {
      const s = session();
      await store.create(s);
      const ids = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store.appendEvent(s.id, 'c', { jsonrpc: '2.0', method: `m${i}` }),
        ),
      );
      assert.equal(new Set(ids).size, 10);
    });
  });

  describe(`MCP session store contract (${name}): the number of sessions is bounded`, () => {
    test('after a sweep there are at most maxSessions, the longest idle dropped first', async () => {
      const { store, close } = await factory({ maxSessions: 3, maxEventsPerStream: 10 });
      try {
        const made: SessionRecord[] = [];
        for (let i = 0; i < 5; i++) {
          const s = session({ lastSeenAt: 10_000 + i });
          made.push(s);
          await store.create(s);
        }
        await store.sweep(0, 100);
        assert.ok((await store.count()) <= 3);
        assert.ok(await store.get(made[4]!.id), 'the most recent stays');
        assert.equal(await store.get(made[0]!.id), undefined, 'the longest idle goes');
      } finally {
        await close();
      }
    });
  });
}
