// Scale-out, proven: three Hamlet processes over one PostgreSQL behind nginx (round robin). Rate
// limits hold across the instances (what one client gets through all three stays within one
// instance's limit, its refill and the stated tolerance: a thirty-second of the limit per instance,
// counted-buckets.ts; within 10% of the limit on a machine fast enough), an agent's session journey passes while the instance holding its event
// stream is killed with SIGKILL, and so does a 2026-07-28 journey while the instance holding its
// listen stream is killed. Needs PostgreSQL (TEST_POSTGRES_URL) and nginx; CI installs both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { openHamlet } from '../../src/main.ts';
import { allowanceOf } from '../../src/store/kysely/counted-buckets.ts';
import { freshPostgresDatabase } from '../store/pg-database.ts';
import { clusterUnavailable, startCluster, type Cluster } from './cluster.ts';
import { journey2026, sessionJourney } from './journeys.ts';

const PER_IP = 120;
const PER_KEY = 60;

const setup = await freshPostgresDatabase('scale');
const missing = setup.ok ? clusterUnavailable() : setup.reason;
if (!setup.ok || missing) {
  const fail = process.env.CI === 'true';
  if (fail) test('scale-out behind nginx', () => assert.fail(`CI=true but ${missing}`));
  else test('scale-out behind nginx', { skip: missing }, () => {});
} else {
  let cluster: Cluster;
  let key: string;
  before(async () => {
    // Two proxies trusted: nginx, and the test itself speaking for the client addresses it needs.
    cluster = await startCluster(setup.url, {
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP),
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: String(PER_KEY),
      HAMLET_TRUSTED_PROXY_HOPS: '2',
    });
    const opened = await openHamlet(loadConfig({ DATABASE_URL: setup.url, LOG_LEVEL: 'silent' }));
    const acme = (await opened.store.communities.getBySlug('acme'))!;
    key = (
      await opened.services.agents.create(systemActor('test'), acme, {
        name: 'limit-probe',
        scopes: [],
      })
    ).key;
    await opened.close();
  });
  after(async () => {
    await cluster?.stop();
    await setup.drop();
  });

  const mcp = () => `${cluster.url}/c/acme/api/mcp`;
  const post = (body: unknown, headers: Record<string, string>) =>
    fetch(mcp(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /**
   * Sends `n` requests, `concurrency` at a time; returns how many were admitted, which instances
   * answered, and the most three instances sharing a bucket of `limit` may admit over the burst's
   * duration (its capacity, what refilled meanwhile, and one allowance per instance).
   */
  async function burst(
    n: number,
    concurrency: number,
    limit: number,
    send: (i: number) => Promise<Response>,
    admitted: (res: Response) => Promise<boolean>,
  ) {
    let next = 0;
    let ok = 0;
    const upstreams = new Set<string>();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < n) {
          const res = await send(next++);
          upstreams.add(res.headers.get('x-upstream') ?? '');
          if (await admitted(res)) ok++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const refill = Math.ceil((limit * seconds) / 60) + 1;
    return { ok, upstreams, seconds, bound: limit + refill + 3 * allowanceOf(limit) };
  }

  /** Admitted within what one shared bucket allows, and (on a machine fast enough) within 10% of its limit. */
  function assertOneBudget(
    t: { diagnostic(m: string): void },
    what: string,
    limit: number,
    r: Awaited<ReturnType<typeof burst>>,
    sent: number,
  ): void {
    t.diagnostic(
      `scale-out: ${what}: ${r.ok} admitted of ${sent} through ${r.upstreams.size} instances in ${r.seconds.toFixed(1)} s (limit ${limit}, +${(((r.ok - limit) / limit) * 100).toFixed(1)}%)`,
    );
    assert.equal(r.upstreams.size, 3, 'all three instances answered');
    assert.ok(
      r.ok >= limit && r.ok <= r.bound,
      `${r.ok} admitted, one bucket allows ${limit}–${r.bound}`,
    );
    if (r.seconds < 5)
      assert.ok(r.ok <= limit * 1.1, `${r.ok} admitted: more than 10% over ${limit}`);
  }

  test(`per IP: ${3 * PER_IP} requests from one client through three instances admit about ${PER_IP}`, async (t) => {
    const r = await burst(
      3 * PER_IP,
      8,
      PER_IP,
      (i) => post({ jsonrpc: '2.0', id: i, method: 'ping' }, { 'x-forwarded-for': '203.0.113.50' }),
      async (res) => {
        await res.arrayBuffer();
        return res.status === 200;
      },
    );
    assertOneBudget(t, 'per IP', PER_IP, r, 3 * PER_IP);
  });

  test(`per key: ${3 * PER_KEY} calls with one key through three instances admit about ${PER_KEY}`, async (t) => {
    const call = (i: number) =>
      post(
        {
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'list_categories', arguments: {} },
        },
        { authorization: `Bearer ${key}`, 'x-forwarded-for': `198.51.100.${i % 250}` },
      );
    const r = await burst(
      3 * PER_KEY,
      8,
      PER_KEY,
      call,
      async (res) => (await res.json()).result?.isError === false,
    );
    assertOneBudget(t, 'per key', PER_KEY, r, 3 * PER_KEY);
  });

  test('a session journey passes while the instance holding its event stream is killed', async (t) => {
    let killed = '';
    const report = await sessionJourney(
      mcp(),
      cluster.demoKey,
      async (upstream) => {
        killed = upstream;
        await cluster.kill(Number(upstream.split(':').at(-1)));
      },
      { 'x-forwarded-for': '192.0.2.10' },
    );
    t.diagnostic(
      `scale-out: session journey of ${report.steps} requests over ${report.upstreams.join(', ')}; killed ${killed}`,
    );
    assert.ok(killed, 'an instance was killed mid-way');
    assert.equal(cluster.instances.filter((i) => i.alive).length, 2);
  });

  test('a 2026-07-28 journey passes while the instance holding its listen stream is killed', async (t) => {
    let killed = '';
    const alive = () => cluster.instances.filter((i) => i.alive).length;
    const before = alive();
    const report = await journey2026(
      mcp(),
      cluster.demoKey,
      async (upstream) => {
        killed = upstream;
        await cluster.kill(Number(upstream.split(':').at(-1)));
      },
      { 'x-forwarded-for': '192.0.2.20' },
    );
    t.diagnostic(
      `scale-out: 2026-07-28 journey of ${report.steps} requests over ${report.upstreams.join(', ')}; killed ${killed}`,
    );
    assert.ok(killed, 'an instance was killed mid-way');
    assert.equal(alive(), before - 1);
  });
}
