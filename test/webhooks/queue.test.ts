// The webhook queue on both engines: concurrent claims (as several instances make them) take
// disjoint deliveries, a finish needs the claim's token, an expired lease lets another claimer take
// the delivery again (same id), and deliveries of an inactive endpoint wait.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/repositories.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';

async function exercise(store: Store): Promise<void> {
  const community = await store.communities.create({ slug: 'queue', name: 'Queue', visibility: 'public' });
  const hooks = store.community(community.id).webhooks;
  const endpoint = await hooks.createEndpoint({ url: 'https://example.com/h', description: '', events: ['topic.created'], secret: 'sealed' });
  const now = Date.now();
  for (let i = 0; i < 20; i++) await hooks.enqueue({ type: 'topic.created', payload: { n: i } }, [endpoint.id], now);
  assert.deepEqual(await hooks.subscribers('topic.created'), [endpoint.id]);
  assert.deepEqual(await hooks.subscribers('post.created'), []);

  const claims = await Promise.all(Array.from({ length: 4 }, () => store.webhookQueue.claim({ now, leaseMs: 60_000, limit: 10 })));
  const ids = claims.flat().map((c) => c.delivery.id);
  assert.equal(ids.length, 20, 'every delivery claimed');
  assert.equal(new Set(ids).size, 20, 'no delivery claimed twice');
  assert.equal((await store.webhookQueue.claim({ now, leaseMs: 60_000, limit: 10 })).length, 0, 'nothing left while the leases hold');

  const [first, second] = claims.flat();
  assert.equal(first!.delivery.attempts, 1);
  assert.equal(first!.endpoint.url, 'https://example.com/h');
  assert.equal(await store.webhookQueue.finish(first!.delivery.id, 'not-the-token', { status: 'delivered', lastStatus: 200 }), false);
  assert.equal(await store.webhookQueue.finish(first!.delivery.id, first!.leaseToken, { status: 'delivered', lastStatus: 200 }), true);
  await store.webhookQueue.finish(second!.delivery.id, second!.leaseToken, { status: 'pending', nextAttemptAt: now + 1_000, lastStatus: 500, lastError: 'boom' });

  // Later than every lease: the unfinished ones are claimed again, with their ids and one more attempt.
  const later = now + 61_000;
  const again = await store.webhookQueue.claim({ now: later, leaseMs: 60_000, limit: 50 });
  assert.equal(again.length, 19);
  assert.ok(!again.some((c) => c.delivery.id === first!.delivery.id));
  assert.equal(again.find((c) => c.delivery.id === second!.delivery.id)!.delivery.attempts, 2);
  assert.equal(await store.webhookQueue.nextDue() !== null, true);

  await store.webhookQueue.disableEndpoint(endpoint.id, 'gone');
  assert.equal((await store.webhookQueue.claim({ now: later + 120_000, leaseMs: 1, limit: 50 })).length, 0, 'an inactive endpoint gets nothing');
  assert.equal(await store.webhookQueue.nextDue(), null);
  const page = await hooks.listDeliveries(endpoint.id, { limit: 5 });
  assert.equal(page.items.length, 5);
  assert.ok(page.next);
  assert.equal(await store.webhookQueue.keyringKey('k', 'first'), 'first');
  assert.equal(await store.webhookQueue.keyringKey('k', 'second'), 'first');
}

describe('webhook queue', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-queue-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('sqlite', async () => {
    const store = await openStore(`sqlite:${join(dir, 'q.db')}`);
    try {
      await exercise(store);
    } finally {
      await store.close();
    }
  });

  test('postgres', async (t) => {
    const setup = await freshPostgresDatabase('queue');
    if (!setup.ok) {
      if (setup.fail) assert.fail(`CI=true but ${setup.reason}`);
      return t.skip(setup.reason);
    }
    const store = await openStore(setup.url);
    try {
      await exercise(store);
    } finally {
      await store.close();
      await setup.drop();
    }
  });
});
