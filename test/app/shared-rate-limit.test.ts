// Several instances over one PostgreSQL count rate limits together: a client spreading its requests
// over them gets one budget, not one per instance. While the database cannot count, each instance
// limits on its own. Leases (leased-buckets.ts) take tokens in advance, so that a request costs no
// round trip, without granting more than the shared bucket holds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { SharedLimiter, TokenBucketLimiter } from '../../src/domain/identity/rate-limit.ts';
import { LeasedBuckets, leaseSize } from '../../src/store/kysely/leased-buckets.ts';
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

/** A shared bucket in memory on a clock the test moves, counting the round trips it is asked for. */
function countedShared() {
  let now = 0;
  const bucket = new TokenBucketLimiter(() => new Date(now));
  const shared = {
    takes: 0,
    take: async (b: string, capacity: number, cost?: number, windowMs?: number) => {
      shared.takes++;
      await Promise.resolve(); // a round trip answers later
      return bucket.take(b, capacity, cost, windowMs);
    },
  };
  return { shared, clock: () => now, advance: (ms: number) => (now += ms) };
}

test('leases: a request costs a round trip once per lease, and the budget is still the bucket', async () => {
  const { shared, clock } = countedShared();
  const leased = new LeasedBuckets(shared, clock);
  const capacity = 1_600; // leases of 64
  assert.equal(leaseSize(capacity), 64);
  const results = await Promise.all(
    Array.from({ length: 2_000 }, async () => (await leased.take('ip:a', capacity)).ok),
  );
  assert.equal(results.filter(Boolean).length, capacity);
  // 25 leases and the requests after them, one by one, once the bucket held less than a lease.
  assert.ok(shared.takes <= 25 + 400 + 2, `${shared.takes} round trips`);
});

test('leases: two instances over one bucket never admit more than it holds', async () => {
  const { shared, clock } = countedShared();
  const [a, b] = [new LeasedBuckets(shared, clock), new LeasedBuckets(shared, clock)];
  const capacity = 320; // leases of 20
  let admitted = 0;
  for (let i = 0; i < 400; i++) if ((await (i % 2 ? a : b).take('ip:a', capacity)).ok) admitted++;
  assert.ok(admitted <= capacity && admitted >= capacity - 2 * leaseSize(capacity), `${admitted}`);
  assert.ok(shared.takes < 400, `${shared.takes} round trips for 400 requests`);
});

test('leases: small buckets and give-backs go to the shared bucket every time', async () => {
  const { shared, clock } = countedShared();
  const leased = new LeasedBuckets(shared, clock);
  for (let i = 0; i < 3; i++) await leased.take('signup:a', 10, 1, 3_600_000);
  await leased.take('ip:b', 1_000, -1);
  assert.equal(shared.takes, 4);
});

test('leases: an idle lease gives its unspent tokens back', async () => {
  const { shared, clock, advance } = countedShared();
  const leased = new LeasedBuckets(shared, clock);
  const other = new LeasedBuckets(shared, clock);
  const capacity = 320; // hour-long window: refilled by less than a token in the test
  const hour = 3_600_000;
  assert.ok((await leased.take('ip:a', capacity, 1, hour)).ok); // leases 20, spends 1
  advance(6_000);
  await leased.take('ip:z', capacity, 1, hour); // sweeps: 19 go back
  await Promise.resolve();
  let admitted = 0;
  for (let i = 0; i < 400; i++) if ((await other.take('ip:a', capacity, 1, hour)).ok) admitted++;
  assert.equal(admitted, capacity - 1);
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

  test('leases over PostgreSQL: two instances share one budget, a round trip per lease', async () => {
    const { store, db } = await openDatabase(setup.url);
    try {
      const buckets = new PostgresRateBuckets(db);
      let trips = 0;
      const counted = {
        take: (b: string, capacity: number, cost?: number, windowMs?: number) => {
          trips++;
          return buckets.take(b, capacity, cost, windowMs);
        },
      };
      const [a, b] = [new LeasedBuckets(counted), new LeasedBuckets(counted)];
      const capacity = 320;
      let admitted = 0;
      for (let i = 0; i < 400; i++)
        if ((await (i % 2 ? a : b).take('ip:leased', capacity, 1, 3_600_000)).ok) admitted++;
      assert.ok(
        admitted <= capacity && admitted >= capacity - 2 * leaseSize(capacity),
        `${admitted} admitted`,
      );
      assert.ok(trips < 200, `${trips} round trips for 400 requests`);
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
