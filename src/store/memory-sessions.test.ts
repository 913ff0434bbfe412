import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemorySessionStore } from './memory-session-store.ts';
import type { SessionRecord } from './session-store.ts';

const session = (id: string, scope = 's', lastSeenAt = 1000): SessionRecord => ({
  id, scope, protocolVersion: '2025-11-25', clientCapabilities: {}, subscriptions: [], createdAt: lastSeenAt, lastSeenAt,
});

test('sessions: create, get, update, delete, list by scope', async () => {
  const store = new InMemorySessionStore();
  await store.create(session('a', 'x'));
  await store.create(session('b', 'y'));
  await store.update('a', { logLevel: 'error', subscriptions: ['u'] });
  assert.equal((await store.get('a'))?.logLevel, 'error');
  assert.deepEqual(await store.listIds('x'), ['a']);
  assert.equal(await store.delete('a'), true);
  assert.equal(await store.get('a'), undefined);
  assert.equal(await store.delete('a'), false);
});

test('sweep drops only idle sessions; touch keeps one alive', async () => {
  const store = new InMemorySessionStore();
  await store.create(session('old', 's', 1000));
  await store.create(session('kept', 's', 1000));
  await store.touch('kept', 5000);
  assert.equal(await store.sweep(2000), 1);
  assert.deepEqual(await store.listIds('s'), ['kept']);
});

test('the number of sessions is bounded: the longest idle goes first', async () => {
  const store = new InMemorySessionStore({ maxSessions: 2, maxEventsPerStream: 10, maxStreamsPerSession: 4 });
  await store.create(session('1'));
  await store.create(session('2'));
  await store.touch('1', 2000);
  await store.create(session('3'));
  assert.equal(await store.get('2'), undefined);
  assert.ok(await store.get('1'));
  assert.equal(await store.count(), 2);
});

test('stream events: ids per stream, replay after an id, bounded log, finish', async () => {
  const store = new InMemorySessionStore({ maxSessions: 10, maxEventsPerStream: 3, maxStreamsPerSession: 4 });
  await store.create(session('s1'));
  await store.openStream('s1', 'st');
  assert.deepEqual(await store.eventsAfter('s1', 'st.0'), { streamId: 'st', events: [], finished: false });
  const ids = [];
  for (let i = 1; i <= 5; i++) ids.push(await store.appendEvent('s1', 'st', { jsonrpc: '2.0', method: `m${i}` }));
  assert.deepEqual(ids, ['st.1', 'st.2', 'st.3', 'st.4', 'st.5']);
  const after = await store.eventsAfter('s1', 'st.3');
  assert.deepEqual(after?.events.map((e) => e.id), ['st.4', 'st.5']);
  // Only the last three are kept.
  assert.deepEqual((await store.eventsAfter('s1', 'st.0'))?.events.map((e) => e.id), ['st.3', 'st.4', 'st.5']);
  await store.finishStream('s1', 'st');
  assert.equal((await store.eventsAfter('s1', 'st.5'))?.finished, true);
  assert.equal(await store.eventsAfter('s1', 'nope.1'), undefined);
  assert.equal(await store.eventsAfter('other', 'st.1'), undefined);
});
