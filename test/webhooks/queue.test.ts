// The webhook queue on both engines: concurrent claims (as several instances make them) take
// disjoint deliveries, a finish needs the claim's token, an expired lease lets another claimer take
// the delivery again (same id), a claim given back at a stop is due again at once with its attempt
// uncounted, and deliveries of an inactive endpoint wait. Retention forgets old
// events whose deliveries have all ended, with their deliveries and attempts, and nothing else.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/repositories.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';

async function exercise(store: Store): Promise<void> {
  const community = await store.communities.create({
    slug: 'queue',
    name: 'Queue',
    visibility: 'public',
  });
  const hooks = store.community(community.id).webhooks;
  const endpoint = await hooks.createEndpoint({
    url: 'https://example.com/h',
    description: '',
    events: ['topic.created'],
    secret: 'sealed',
  });
  const now = Date.now();
  for (let i = 0; i < 20; i++)
    await hooks.enqueue({ type: 'topic.created', payload: { n: i } }, [endpoint.id], now);
  assert.deepEqual(await hooks.subscribers('topic.created'), [endpoint.id]);
  assert.deepEqual(await hooks.subscribers('post.created'), []);

  const claims = await Promise.all(
    Array.from({ length: 4 }, () => store.webhookQueue.claim({ now, leaseMs: 60_000, limit: 10 })),
  );
  const ids = claims.flat().map((c) => c.delivery.id);
  assert.equal(ids.length, 20, 'every delivery claimed');
  assert.equal(new Set(ids).size, 20, 'no delivery claimed twice');
  assert.equal(
    (await store.webhookQueue.claim({ now, leaseMs: 60_000, limit: 10 })).length,
    0,
    'nothing left while the leases hold',
  );

  const [first, second] = claims.flat();
  assert.equal(first!.delivery.attempts, 1);
  assert.equal(first!.endpoint.url, 'https://example.com/h');
  assert.equal(
    await store.webhookQueue.finish(first!.delivery.id, 'not-the-token', {
      status: 'delivered',
      lastStatus: 200,
    }),
    false,
  );
  assert.equal(
    await store.webhookQueue.finish(first!.delivery.id, first!.leaseToken, {
      status: 'delivered',
      lastStatus: 200,
    }),
    true,
  );
  await store.webhookQueue.finish(second!.delivery.id, second!.leaseToken, {
    status: 'pending',
    nextAttemptAt: now + 1_000,
    lastStatus: 500,
    lastError: 'boom',
  });

  // Later than every lease: the unfinished ones are claimed again, with their ids and one more attempt.
  const later = now + 61_000;
  const again = await store.webhookQueue.claim({ now: later, leaseMs: 60_000, limit: 50 });
  assert.equal(again.length, 19);
  assert.ok(!again.some((c) => c.delivery.id === first!.delivery.id));
  assert.equal(again.find((c) => c.delivery.id === second!.delivery.id)!.delivery.attempts, 2);
  assert.equal((await store.webhookQueue.nextDue()) !== null, true);
  assert.equal(
    await store.webhookQueue.pendingCount(),
    19,
    'the queue depth: every undelivered one',
  );

  // A claim given back at a stop (only by its holder): its attempt uncounted, due again at once.
  const given = again.find((c) => c.delivery.id !== second!.delivery.id)!;
  assert.equal(await store.webhookQueue.release(given.delivery.id, 'not-the-token'), false);
  assert.equal(await store.webhookQueue.release(given.delivery.id, given.leaseToken), true);
  const retaken = await store.webhookQueue.claim({ now: later, leaseMs: 60_000, limit: 50 });
  assert.deepEqual(
    retaken.map((c) => c.delivery.id),
    [given.delivery.id],
  );
  assert.equal(retaken[0]!.delivery.attempts, given.delivery.attempts, 'the release uncounted');

  await store.webhookQueue.disableEndpoint(endpoint.id, 'gone');
  assert.equal(
    (await store.webhookQueue.claim({ now: later + 120_000, leaseMs: 1, limit: 50 })).length,
    0,
    'an inactive endpoint gets nothing',
  );
  assert.equal(await store.webhookQueue.nextDue(), null);
  assert.equal(
    await store.webhookQueue.pendingCount(),
    0,
    'an inactive endpoint waits for nothing',
  );
  const page = await hooks.listDeliveries(endpoint.id, { limit: 5 });
  assert.equal(page.items.length, 5);
  assert.ok(page.next);
  assert.equal(await store.webhookQueue.keyringKey('k', 'first'), 'first');
  assert.equal(await store.webhookQueue.keyringKey('k', 'second'), 'first');
}

async function retention(store: Store): Promise<void> {
  const community = await store.communities.create({
    slug: 'retention',
    name: 'Retention',
    visibility: 'public',
  });
  const hooks = store.community(community.id).webhooks;
  const a = await hooks.createEndpoint({
    url: 'https://example.com/a',
    description: '',
    events: ['topic.created'],
    secret: 'sealed',
  });
  const b = await hooks.createEndpoint({
    url: 'https://example.com/b',
    description: '',
    events: ['topic.created'],
    secret: 'sealed',
  });
  const now = Date.now();
  const delivered = await hooks.enqueue(
    { type: 'topic.created', payload: { n: 'delivered' } },
    [a.id],
    now,
  );
  const failed = await hooks.enqueue(
    { type: 'topic.created', payload: { n: 'failed' } },
    [a.id],
    now,
  );
  const half = await hooks.enqueue(
    { type: 'topic.created', payload: { n: 'one of two ended' } },
    [a.id, b.id],
    now,
  );
  const waiting = await hooks.enqueue(
    { type: 'topic.created', payload: { n: 'pending' } },
    [b.id],
    now + 3_600_000,
  );
  const claimed = await store.webhookQueue.claim({ now, leaseMs: 60_000, limit: 10 });
  const byEvent = (id: string, endpoint: string) =>
    claimed.find((c) => c.event.id === id && c.endpoint.id === endpoint)!;
  for (const c of [byEvent(delivered.id, a.id), byEvent(failed.id, a.id), byEvent(half.id, a.id)]) {
    await store.webhookQueue.recordAttempt({
      communityId: community.id,
      deliveryId: c.delivery.id,
      attempt: 1,
      startedAt: new Date(now).toISOString(),
      durationMs: 5,
      statusCode: 200,
      error: null,
      responseExcerpt: null,
    });
  }
  await store.webhookQueue.finish(
    byEvent(delivered.id, a.id).delivery.id,
    byEvent(delivered.id, a.id).leaseToken,
    { status: 'delivered', lastStatus: 200 },
  );
  await store.webhookQueue.finish(
    byEvent(failed.id, a.id).delivery.id,
    byEvent(failed.id, a.id).leaseToken,
    { status: 'failed', lastStatus: 500, lastError: 'gave up' },
  );
  await store.webhookQueue.finish(
    byEvent(half.id, a.id).delivery.id,
    byEvent(half.id, a.id).leaseToken,
    { status: 'delivered', lastStatus: 200 },
  );
  const half2 = byEvent(half.id, b.id);
  await store.webhookQueue.finish(half2.delivery.id, half2.leaseToken, {
    status: 'pending',
    nextAttemptAt: now + 60_000,
    lastStatus: 503,
    lastError: 'busy',
  });

  assert.equal(
    await store.webhookQueue.prune({ before: now - 86_400_000, limit: 100 }),
    0,
    'nothing is older than a day ago',
  );
  const later = now + 86_400_000;
  assert.equal(await store.webhookQueue.prune({ before: later, limit: 1 }), 1, 'the limit holds');
  assert.equal(await store.webhookQueue.prune({ before: later, limit: 100 }), 1);
  assert.equal(
    await store.webhookQueue.prune({ before: later, limit: 100 }),
    0,
    'a second pass finds nothing more',
  );
  for (const c of [byEvent(delivered.id, a.id), byEvent(failed.id, a.id)]) {
    assert.equal(
      await hooks.getDelivery(c.delivery.id),
      undefined,
      'an ended delivery of a forgotten event is gone',
    );
    assert.deepEqual(await hooks.listAttempts(c.delivery.id), [], 'so are its attempts');
  }
  const kept = await hooks.getDelivery(byEvent(half.id, a.id).delivery.id);
  assert.equal(
    kept?.status,
    'delivered',
    'an event with a delivery still pending keeps all of them',
  );
  assert.equal((await hooks.listAttempts(kept!.id)).length, 1);
  assert.equal((await hooks.getDelivery(half2.delivery.id))?.status, 'pending');
  assert.equal(
    (await hooks.listDeliveries(b.id, { limit: 10 })).items.filter((d) => d.eventId === waiting.id)
      .length,
    1,
    'a pending delivery is never forgotten',
  );
  // Out of the way of the queue's other checks on this store.
  for (const e of [a, b]) await store.webhookQueue.disableEndpoint(e.id, 'done');
}

describe('webhook queue', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-queue-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('sqlite', async () => {
    const store = await openStore(`sqlite:${join(dir, 'q.db')}`);
    try {
      await retention(store);
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
      await retention(store);
      await exercise(store);
    } finally {
      await store.close();
      await setup.drop();
    }
  });
});
