// Several instances over one PostgreSQL count rate limits together: a client spreading its requests
// over them gets one budget, not one per instance. While the database cannot count, each instance
// limits on its own. Each instance counts in memory and settles with the database once a second in
// one statement (counted-buckets.ts), so a request costs no statement; the tolerance: over any
// window a client gets at most the capacity, plus the refill, plus one allowance (a thirty-second
// of the capacity) per instance. Buckets under 64 are charged in the database, exactly.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { SharedLimiter, TokenBucketLimiter } from '../../src/domain/identity/rate-limit.ts';
import { CountedBuckets, allowanceOf } from '../../src/store/kysely/counted-buckets.ts';
import { PostgresRateBuckets, type Spent } from '../../src/store/kysely/rate-buckets.ts';
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
  const PER_IP = 64;
  const instances: TestHamlet[] = [];
  let key: string;
  before(async () => {
    // Behind a (pretend) proxy, so each test can speak for the client addresses it needs.
    // Per IP 64 a minute: counted (an allowance of 2 per instance); per key 6: charged exactly.
    const env = {
      DATABASE_URL: setup.url,
      HAMLET_TRUST_PROXY: '1',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP),
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '6',
    };
    for (let i = 0; i < 3; i++) instances.push(await startTestHamlet(env));
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

  test('per IP: pings spread over three instances share one budget, within the tolerance', async (t) => {
    const started = performance.now();
    let admitted = 0;
    for (let i = 0; i < 3 * PER_IP; i++) {
      const h = instances[i % 3]!;
      const res = await rpc(
        h.hostUrl('localhost', '/api/mcp'),
        { jsonrpc: '2.0', id: i, method: 'ping' },
        { 'x-forwarded-for': '203.0.113.1' },
      );
      if (res.status === 200) admitted++;
      else assert.equal(res.status, 429);
    }
    const refill = Math.ceil(((performance.now() - started) / 60_000) * PER_IP);
    // One budget: 64, not 3 × 64; at most one allowance (2) per instance past it, plus the refill.
    const tolerance = 3 * allowanceOf(PER_IP);
    assert.equal(tolerance, 6);
    t.diagnostic(`${admitted} of ${3 * PER_IP} admitted: budget ${PER_IP}, refill ${refill}`);
    assert.ok(
      admitted >= PER_IP && admitted <= PER_IP + refill + tolerance,
      `${admitted} of ${3 * PER_IP} pings admitted (budget ${PER_IP}, refill ${refill}, tolerance ${tolerance})`,
    );
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

  /** PostgresRateBuckets on the test's database, counting the statements asked of it. */
  const countedSource = (db: ConstructorParameters<typeof PostgresRateBuckets>[0]) => {
    const buckets = new PostgresRateBuckets(db);
    const asked = { takes: 0, settles: 0, failNext: false };
    const source = {
      take: (b: string, capacity: number, cost?: number, windowMs?: number) => {
        asked.takes++;
        return buckets.take(b, capacity, cost, windowMs);
      },
      settle: async (entries: Spent[]) => {
        asked.settles++;
        if (asked.failNext) {
          asked.failNext = false;
          throw new Error('database down');
        }
        return buckets.settle(entries);
      },
    };
    return { source, asked };
  };
  const HOUR = 3_600_000; // refilled by less than a token over a test

  test('counted: requests send no statement; one statement settles every bucket', async () => {
    const { store, db } = await openDatabase(setup.url);
    const { source, asked } = countedSource(db);
    const counted = new CountedBuckets(source, { settleEveryMs: 60_000 });
    try {
      for (let i = 0; i < 500; i++) {
        const r = await counted.take(`ip:settle-${i % 50}`, 320, 1, HOUR);
        assert.ok(r.ok && r.remaining === 320 - Math.floor(i / 50) - 1, JSON.stringify(r));
      }
      assert.deepEqual(asked, { takes: 0, settles: 0, failNext: false });
      await counted.close();
      assert.equal(asked.settles, 1, 'the fifty buckets in one statement');
      const rows = await db
        .selectFrom('rate_limit_buckets' as never)
        .select(['bucket' as never, 'tokens' as never])
        .where('bucket' as never, 'like', 'ip:settle-%' as never)
        .execute();
      assert.equal(rows.length, 50);
      for (const row of rows as { tokens: number }[])
        assert.ok(Math.abs(Number(row.tokens) - 310) < 0.5, `${row.tokens} left of 320`);
    } finally {
      await store.close();
    }
  });

  test('counted: two instances over one bucket admit the capacity and at most one allowance each past it', async (t) => {
    const { store, db } = await openDatabase(setup.url);
    const { source, asked } = countedSource(db);
    const [a, b] = [new CountedBuckets(source), new CountedBuckets(source)];
    try {
      const capacity = 320; // allowances of 10
      let admitted = 0;
      for (let i = 0; i < 400; i++)
        if ((await (i % 2 ? a : b).take('ip:two', capacity, 1, HOUR)).ok) admitted++;
      const tolerance = 2 * allowanceOf(capacity);
      t.diagnostic(
        `${admitted} of 400 admitted (capacity ${capacity}), ${asked.settles} statements`,
      );
      assert.ok(
        admitted >= capacity && admitted <= capacity + tolerance,
        `${admitted} admitted of ${capacity} (tolerance ${tolerance})`,
      );
      // Each instance settles once per allowance spent (a burst), never once per request.
      assert.ok(
        asked.settles <= Math.ceil(400 / allowanceOf(capacity)) + 4,
        `${asked.settles} statements`,
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
      await store.close();
    }
  });

  test('counted: small buckets and give-backs not counted here are charged in the database', async () => {
    const { store, db } = await openDatabase(setup.url);
    const { source, asked } = countedSource(db);
    const counted = new CountedBuckets(source, { settleEveryMs: 60_000 });
    try {
      for (let i = 0; i < 3; i++) await counted.take('signup:small', 10, 1, HOUR);
      await counted.take('ip:unknown', 1_000, -1);
      assert.equal(asked.takes, 4);
      assert.equal(asked.settles, 0);
    } finally {
      await counted.close();
      await store.close();
    }
  });

  test('counted: a failed settling keeps the counts and sends them again', async () => {
    const { store, db } = await openDatabase(setup.url);
    const { source, asked } = countedSource(db);
    const counted = new CountedBuckets(source, { settleEveryMs: 60_000 });
    try {
      for (let i = 0; i < 5; i++) await counted.take('ip:retry', 320, 1, HOUR);
      asked.failNext = true;
      // Past the allowance (10): the request settles first; the database is down, so it says so.
      for (let i = 0; i < 5; i++) await counted.take('ip:retry', 320, 1, HOUR);
      await assert.rejects(counted.take('ip:retry', 320, 1, HOUR), /database down/);
      await counted.close();
      const row = await db
        .selectFrom('rate_limit_buckets' as never)
        .select('tokens' as never)
        .where('bucket' as never, '=', 'ip:retry' as never)
        .executeTakeFirst();
      assert.ok(Math.abs(Number((row as { tokens: number }).tokens) - 310) < 0.5, 'the ten spent');
    } finally {
      await store.close();
    }
  });

  test('per key: calls spread over three instances share one budget', async () => {
    const codes = [];
    for (let i = 0; i < 10; i++) {
      const h = instances[i % 3]!;
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
