// Readiness: a write probe, reused for a second and shared by concurrent checks; a database that
// answers but refuses writes is "not writable", one that does not answer "unreachable"; a LISTEN
// connection that is down makes the instance not ready.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from './repositories.ts';
import { readinessCheck } from './readiness.ts';
import type { ListenerState } from './pg-channel.ts';

function fakeStore(o: { write: () => Promise<void>; ping: () => Promise<void> }) {
  let writes = 0;
  const store = {
    probeWrite: async () => {
      writes++;
      return o.write();
    },
    ping: o.ping,
  } as unknown as Store;
  return { store, writes: () => writes };
}

test('the write probe is reused within its cache period and shared by concurrent checks', async () => {
  const { store, writes } = fakeStore({ write: async () => {}, ping: async () => {} });
  let now = 1_000_000;
  const realNow = Date.now;
  Date.now = () => now;
  try {
    const check = readinessCheck({ store, cacheMs: 1000 });
    const answers = await Promise.all([check(), check(), check()]);
    assert.deepEqual(answers[0], { ready: true, database: 'ok' });
    assert.equal(writes(), 1);
    now += 999;
    await check();
    assert.equal(writes(), 1);
    now += 1;
    await check();
    assert.equal(writes(), 2);
  } finally {
    Date.now = realNow;
  }
});

test('refused writes are "not writable", no answer is "unreachable", each said once', async () => {
  const problems: string[] = [];
  const refusing = fakeStore({
    write: async () => Promise.reject(new Error('attempt to write a readonly database')),
    ping: async () => {},
  });
  const check = readinessCheck({
    store: refusing.store,
    cacheMs: 0,
    onProblem: (state) => problems.push(state),
  });
  assert.deepEqual(await check(), { ready: false, database: 'not writable' });
  assert.deepEqual(await check(), { ready: false, database: 'not writable' });
  assert.deepEqual(problems, ['not writable']);

  const silent = fakeStore({
    write: async () => new Promise(() => {}),
    ping: async () => new Promise(() => {}),
  });
  const slow = readinessCheck({ store: silent.store, cacheMs: 0, timeoutMs: 20 });
  assert.deepEqual(await slow(), { ready: false, database: 'unreachable' });
});

test('a LISTEN connection that is not up makes the instance not ready, and says so', async () => {
  const { store } = fakeStore({ write: async () => {}, ping: async () => {} });
  let state: ListenerState = 'reconnecting';
  const check = readinessCheck({ store, listener: () => state });
  assert.deepEqual(await check(), { ready: false, database: 'ok', listener: 'reconnecting' });
  state = 'listening';
  assert.deepEqual(await check(), { ready: true, database: 'ok', listener: 'listening' });
});
