// SIGTERM during a webhook delivery the receiver never answers ends the process within
// HAMLET_SEND_STOP_WAIT_MS (not the delivery's 30 s timeout): the dispatcher stops claiming, gives
// the delivery its short wait, then gives it up and leaves it pending with its attempt uncounted and
// no attempt logged. The next instance delivers it at once, once, under the same webhook-id.
// A real `hamlet serve` and a real HTTP receiver (the queue's release runs on both engines in
// ./queue.test.ts).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/open.ts';
import { freePort } from '../helpers/serve.ts';
import '../helpers/localhost-dns.mjs';
import { Receiver, waitFor } from './receiver.ts';
import { prepareHookedCommunity, servingOn, startServe } from './serve-with-hook.ts';

const STOP_WAIT_MS = 1_000;
const dir = mkdtempSync(join(tmpdir(), 'hamlet-hook-stop-'));
const children: ChildProcess[] = [];
let rx: Receiver | undefined;
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rx?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('SIGTERM mid-delivery: a bounded stop, the delivery sent once by the next instance', async () => {
  rx = await new Receiver().on('/hook', { delayMs: 60_000 }).start();
  const receiver = rx;
  const port = await freePort();
  const url = `sqlite:${join(dir, 'hamlet.db')}`;
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    HAMLET_WEBHOOK_ALLOW_PRIVATE: '1',
    HAMLET_WEBHOOK_TIMEOUT_MS: '30000',
    HAMLET_SEND_STOP_WAIT_MS: String(STOP_WAIT_MS),
  };
  const { communityId, endpointId, key } = await prepareHookedCommunity(
    env,
    'stopper',
    rx.url('/hook'),
  );
  const start = () => startServe(env, children);
  const up = () => servingOn(port);
  const deliveries = async () => {
    const db = await openDatabase(url, { migrate: false });
    try {
      return (
        await db.store.community(communityId).webhooks.listDeliveries(endpointId, { limit: 5 })
      ).items;
    } finally {
      await db.store.close();
    }
  };

  const first = start();
  await up();
  const created = await fetch(`http://stopper.localhost:${port}/api/v1/topics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      category: 'support',
      title: 'A topic whose webhook is held',
      body: 'Its delivery is in flight when the instance stops.',
    }),
  });
  assert.equal(created.status, 201);
  await waitFor(() => receiver.received.length >= 1, 10_000, 'the delivery in flight');

  const exited = new Promise<number | null>((r) => first.once('exit', (code) => r(code)));
  const began = performance.now();
  first.kill('SIGTERM');
  const code = await exited;
  const tookMs = performance.now() - began;
  assert.equal(code, 0, 'a clean exit');
  assert.ok(tookMs >= STOP_WAIT_MS - 100, `it waited for the delivery first (${tookMs} ms)`);
  assert.ok(tookMs < STOP_WAIT_MS + 4_000, `it ended within the bound (${tookMs} ms)`);
  const [held] = await deliveries();
  assert.ok(held);
  assert.deepEqual([held.status, held.attempts], ['pending', 0], 'left pending, uncounted');

  const heldId = String(receiver.received[0]!.headers['webhook-id']);
  rx.on('/hook', {});
  start();
  await up();
  await waitFor(() => receiver.received.length >= 2, 15_000, 'the delivery sent again');
  await waitFor(
    async () => (await deliveries())[0]?.status === 'delivered',
    10_000,
    'the delivery marked delivered',
  );
  const [done] = await deliveries();
  assert.equal(done!.attempts, 1, 'one attempt counted: the one answered');
  assert.equal(receiver.received.length, 2, 'held once, delivered once');
  assert.equal(String(receiver.received[1]!.headers['webhook-id']), heldId, 'the same webhook-id');
});
