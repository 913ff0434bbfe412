// Several instances over one PostgreSQL count rate limits together: a client spreading its requests
// over them gets one budget, not one per instance. While the database cannot count, each instance
// limits on its own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { SharedLimiter, TokenBucketLimiter } from '../../src/domain/identity/rate-limit.ts';
import { PostgresRateBuckets } from '../../src/store/kysely/rate-buckets.ts';
import { openDatabase } from '../../src/store/open.ts';
import { rpc } from '../mcp/http-client.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { callTool } from '../security/mcp.ts';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

test('a shared limiter that fails falls back to the local one and says so', async () => {
  const errors: unknown[] = [];
  const failing = { take: async () => Promise.reject(new Error('database down')) };
  const limiter = new SharedLimiter(failing, new TokenBucketLimiter(), (err) => errors.push(err));
  const results = [];
  for (let i = 0; i < 3; i++) results.push((await limiter.take('ip:x', 2)).ok);
  assert.deepEqual(results, [true, true, false]);
  assert.equal(errors.length, 3);
});

const setup = await freshPostgresDatabase('ratelimit');
if (!setup.ok) {
  if (setup.fail)
    test('rate limits across instances', () => assert.fail(`CI=true but ${setup.reason}`));
  else test('rate limits across instances', { skip: setup.reason }, () => {});
} else {
  const instances: TestHamlet[] = [];
  let key: string;
  before(async () => {
    // Behind a (pretend) proxy, so each test can speak for the client addresses it needs.
    const env = {
      DATABASE_URL: setup.url,
      HAMLET_TRUST_PROXY: '1',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '10',
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '6',
    };
    instances.push(await startTestHamlet(env), await startTestHamlet(env));
    const acme = (await instances[0]!.store.communities.create({
      slug: 'acme',
      name: 'Acme',
      visibility: 'public',
    }))!;
    key = (
      await instances[0]!.services.agents.create(systemActor('test'), acme, {
        name: 'bot',
        scopes: [],
      })
    ).key;
  });
  after(async () => {
    await Promise.all(instances.map((h) => h.stop()));
    await setup.drop();
  });

  test('per IP: requests alternating between two instances share one budget', async () => {
    let admitted = 0;
    for (let i = 0; i < 30; i++) {
      const h = instances[i % 2]!;
      const res = await rpc(
        h.hostUrl('localhost', '/api/mcp'),
        { jsonrpc: '2.0', id: i, method: 'ping' },
        { 'x-forwarded-for': '203.0.113.1' },
      );
      if (res.status === 200) admitted++;
      else assert.equal(res.status, 429);
    }
    assert.equal(admitted, 10);
  });

  test('buckets with a longer window (sign-ups: so many an hour) refill over that window', async () => {
    const { store, db } = await openDatabase(setup.url);
    try {
      const buckets = new PostgresRateBuckets(db);
      const hour = 3_600_000;
      assert.deepEqual(
        [
          (await buckets.take('signup:x', 2, 1, hour)).ok,
          (await buckets.take('signup:x', 2, 1, hour)).ok,
        ],
        [true, true],
      );
      const refused = await buckets.take('signup:x', 2, 1, hour);
      assert.ok(
        !refused.ok && Math.abs(refused.retryAfterMs - 1_800_000) < 5_000,
        JSON.stringify(refused),
      );
    } finally {
      await store.close();
    }
  });

  test('per key: calls alternating between two instances share one budget', async () => {
    const codes = [];
    for (let i = 0; i < 10; i++) {
      const h = instances[i % 2]!;
      // A fresh client address per call, so only the key's budget is in play.
      const res = await callTool(
        h.hostUrl('acme.localhost', '/api/mcp'),
        'list_categories',
        {},
        key,
        { 'x-forwarded-for': `198.51.100.${i}` },
      );
      codes.push(res.structured?.code ?? (res.status === 429 ? 'ip' : 'ok'));
    }
    assert.deepEqual(codes.filter((c) => c === 'ok').length, 6, codes.join(' '));
  });
}
