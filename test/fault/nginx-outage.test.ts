// A database outage through the documented nginx: one PostgreSQL, three `hamlet serve` instances
// and nginx configured from docs/operations.md's example (its upstream with max_fails, its
// proxy_next_upstream on 502/503, X-Request-Id set, /metrics denied). Under a bounded load on MCP
// (tool calls that write and read), REST (writes and reads) and the web, PostgreSQL gets a
// `pg_ctl restart -m fast` and then a 20 s stop. No client may see a 500 (or any 5xx but 503) or
// an `internal` tool error: every refusal is a 503 with Retry-After, or a tool/JSON-RPC error
// `unavailable` with its retry wait; every acknowledged write is stored exactly once; and once the
// database is back, writes through nginx are acknowledged again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstances, readyWithin, type Instances } from './instances.ts';
import { postgresBin, startPgServer, type PgServer } from './pg-server.ts';
import { seedCommunity } from './seed.ts';
import { nginxUnavailable, startNginx, type Nginx } from './nginx-doc.ts';
import { judge, startFaceLoad, tally, type FaceLoad } from './face-load.ts';

const missing = postgresBin() ? nginxUnavailable() : 'PostgreSQL is not installed';
if (missing) {
  if (process.env.CI === 'true')
    test('outage through nginx', () => assert.fail(`CI=true but ${missing}`));
  else test('outage through nginx', { skip: missing }, () => {});
} else {
  let server: PgServer;
  let instances: Instances;
  let nginx: Nginx;
  let key: string;
  before(async () => {
    server = await startPgServer();
    ({ key } = await seedCommunity(server.url));
    instances = await startInstances(server.url, {
      HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
      HAMLET_TRUST_PROXY: '1',
      HAMLET_TRUSTED_PROXY_HOPS: '1',
      HAMLET_PG_POOL_SIZE: '4',
      HAMLET_PG_CONNECT_TIMEOUT_MS: '2000',
    });
    nginx = await startNginx(instances.list.map((i) => i.port));
  });
  after(async () => {
    await nginx?.stop();
    await instances?.stop();
    await server?.stop();
  });

  test('the documented nginx denies /metrics and sets X-Request-Id', async () => {
    const metrics = await fetch(`${nginx.url}/metrics`);
    await metrics.arrayBuffer();
    assert.equal(metrics.status, 404, '/metrics is denied at the proxy');
    // nginx replaces whatever id the client sent with its own $request_id (32 hex digits), and
    // Hamlet answers with the id it was given.
    const page = await fetch(`${nginx.url}/c/acme/`, {
      headers: { 'x-request-id': 'from-client' },
    });
    await page.arrayBuffer();
    assert.equal(page.status, 200);
    assert.match(page.headers.get('x-request-id') ?? '', /^[0-9a-f]{32}$/);
  });

  for (const [label, fault] of [
    ['restart', async () => server.restart()],
    ['stop', async () => server.pause(20_000)],
  ] as const) {
    test(`a ${label} of PostgreSQL through nginx: no 500, every refusal says when to retry`, async (t) => {
      const load = startFaceLoad(nginx.url, key, `Nginx ${label}`, { writers: 3 });
      await new Promise((r) => setTimeout(r, 1_000));
      const faultStarted = performance.now();
      await fault();
      const faultMs = Math.round(performance.now() - faultStarted);
      await Promise.all(instances.list.map(async (i) => readyWithin(i, 15_000)));
      const backMs = await writesAcknowledgedAgain(load, 20_000);
      await load.stop();

      const { wrong, refused, fiveHundreds } = judge(load.seen);
      t.diagnostic(
        `${label} (${faultMs} ms, writes acknowledged again ${backMs} ms after the database): ` +
          `${load.seen.length} answers, ${refused} refusals, ${fiveHundreds} 5xx other than 503, ` +
          `${load.acked.length} writes acknowledged: ${JSON.stringify(tally(load.seen))}`,
      );
      assert.deepEqual(instances.exits, [], 'no instance exited');
      assert.ok(
        backMs >= 0,
        'writes through nginx were acknowledged again once the database was back',
      );
      assert.equal(fiveHundreds, 0, `no 500 (or other 5xx but 503); nginx: ${nginx.errorLog()}`);
      assert.deepEqual(
        load.seen.filter((s) => s.code === 'internal'),
        [],
        'no internal tool error',
      );
      assert.deepEqual(
        wrong.slice(0, 10),
        [],
        `answers neither 2xx nor a refusal with its wait: ${wrong.length}`,
      );
      if (label === 'stop') assert.ok(refused > 0, 'a stop of 20 s was refused somewhere');
      assert.ok(load.acked.length > 0, 'writes were acknowledged');

      const rows = await server.query<{ title: string; n: string }>(
        `select title, count(*) as n from topics where title like $1 group by title`,
        [`Nginx ${label} %`],
      );
      const stored = new Map(rows.map((r) => [r.title, Number(r.n)]));
      const notOnce = load.acked.filter((title) => stored.get(title) !== 1);
      assert.deepEqual(notOnce, [], 'every acknowledged write stored exactly once');
      t.diagnostic(
        `${label}: ${load.acked.length} writes acknowledged, ${load.acked.length - notOnce.length} found once`,
      );
    });
  }
}

/**
 * Waits until the load has a few writes acknowledged after now; the milliseconds that took (NaN:
 * none within `ms`).
 */
async function writesAcknowledgedAgain(load: FaceLoad, ms: number): Promise<number> {
  const started = performance.now();
  const before = load.acked.length;
  while (load.acked.length <= before + 3) {
    if (performance.now() - started > ms) return Number.NaN;
    await new Promise((r) => setTimeout(r, 50));
  }
  return Math.round(performance.now() - started);
}
