// What clients are told while PostgreSQL is away: one instance under a small load on every face
// (MCP tool calls that write and read, REST writes and reads, web pages: ./face-load.ts), through
// a `pg_ctl restart -m fast` and a stop of a few seconds. No answer may be a 500 or an `internal`
// tool error: every refusal is a 503 with Retry-After (a tool call's failure: code `unavailable`
// with retry_after_ms), writes arriving during the short restart wait for the server instead of
// failing, and every acknowledged write is stored exactly once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startInstances, readyWithin, type Instances } from './instances.ts';
import { judge, startFaceLoad, tally } from './face-load.ts';
import { postgresBin, startPgServer, type PgServer } from './pg-server.ts';
import { seedCommunity } from './seed.ts';

const missing = postgresBin() ? undefined : 'PostgreSQL is not installed';
if (missing) {
  if (process.env.CI === 'true')
    test('outage answers', () => assert.fail(`CI=true but ${missing}`));
  else test('outage answers', { skip: missing }, () => {});
} else {
  let server: PgServer;
  let instances: Instances;
  let key: string;
  before(async () => {
    server = await startPgServer();
    ({ key } = await seedCommunity(server.url));
    instances = await startInstances(
      server.url,
      {
        HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
        HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
        HAMLET_PG_POOL_SIZE: '4',
        HAMLET_PG_CONNECT_TIMEOUT_MS: '1500',
      },
      ['A'],
    );
  });
  after(async () => {
    await instances?.stop();
    await server?.stop();
  });

  for (const [label, fault] of [
    ['restart', () => server.restart()],
    ['stop', () => server.pause(3_000)],
  ] as const) {
    test(`a ${label} of PostgreSQL answers 503 with Retry-After, never 500`, async (t) => {
      const instance = instances.list[0]!;
      const load = startFaceLoad(instance.url(''), key, `Outage ${label}`);
      await new Promise((r) => setTimeout(r, 500));
      const faultStarted = performance.now();
      await fault();
      const faultMs = Math.round(performance.now() - faultStarted);
      await readyWithin(instance, 10_000);
      await new Promise((r) => setTimeout(r, 500));
      await load.stop();

      t.diagnostic(`${label} (${faultMs} ms): ${JSON.stringify(tally(load.seen))}`);
      const { wrong, refused, fiveHundreds } = judge(load.seen);
      assert.deepEqual(instances.exits, [], 'the instance did not exit');
      assert.equal(fiveHundreds, 0, 'no 500 (or other 5xx but 503)');
      assert.deepEqual(
        load.seen.filter((s) => s.code === 'internal'),
        [],
        'no internal tool error',
      );
      assert.deepEqual(wrong, [], 'only 2xx, and refusals that say when to retry, each in time');
      if (label === 'stop') assert.ok(refused > 0, 'a stop of 3 s was refused somewhere');
      assert.ok(load.acked.length > 0, 'writes were acknowledged');

      const rows = await server.query<{ title: string; n: string }>(
        `select title, count(*) as n from topics where title like $1 group by title`,
        [`Outage ${label} %`],
      );
      const stored = new Map(rows.map((r) => [r.title, Number(r.n)]));
      assert.deepEqual(
        load.acked.filter((t) => stored.get(t) !== 1),
        [],
        'every acknowledged write stored exactly once',
      );
    });
  }
}
