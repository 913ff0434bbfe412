// Failover: DATABASE_URL lists a primary and its standby (`postgres://…@primary,standby/hamlet`);
// synchronous replication (synchronous_standby_names), so a write is acknowledged once the standby
// has it. Under a bounded write load through two `hamlet serve` instances, the primary dies
// (`pg_ctl stop -m immediate`) and the standby is promoted: no instance exits, writes resume within
// seconds on the promoted standby (found by pg_is_in_recovery(), no restart), /readyz answers 200
// again, and every acknowledged write is there exactly once. Figures go out as diagnostics.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readyWithin, startInstances, type Instances } from './instances.ts';
import { exactlyOnce, startLoad, type Load } from './load.ts';
import { replicationMissing, startReplicated, type Replicated } from './pg-standby.ts';
import { seedCommunity } from './seed.ts';
import { until } from './streams.ts';

const WRITES_BEFORE = 15;
const WRITES_AFTER = 15;
const missing = replicationMissing();

if (missing) {
  if (process.env.CI === 'true') test('failover', () => assert.fail(`CI=true but ${missing}`));
  else test('failover', { skip: missing }, () => {});
} else {
  let pg: Replicated;
  let instances: Instances;
  let key: string;
  let startup = '';
  before(async () => {
    const started = performance.now();
    pg = await startReplicated({ synchronous: true });
    const pgMs = Math.round(performance.now() - started);
    ({ key } = await seedCommunity(pg.primary.url));
    instances = await startInstances(
      pg.bothUrl,
      {
        HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
        HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
        HAMLET_PG_POOL_SIZE: '5',
        HAMLET_PG_CONNECT_TIMEOUT_MS: '2000',
      },
      ['A', 'B'],
    );
    startup = `primary and standby up in ${pgMs} ms, seeded and two instances up in ${Math.round(performance.now() - started - pgMs)} ms`;
  });
  after(async () => {
    await instances?.stop();
    await pg?.stop();
  });

  test('the primary dies and the standby is promoted under load: writes resume on it, none lost', async (t) => {
    t.diagnostic(`failover: ${startup}`);
    let load: Load | undefined = startLoad(instances.list, key, 'failover');
    try {
      await until(() => load!.acked.length >= WRITES_BEFORE, 20_000, 'writes before the failover');
      const killed = Date.now();
      await pg.primary.kill();
      const killMs = Date.now() - killed;
      await pg.standby.promote();
      const promoted = Date.now();
      const promoteMs = promoted - killed;
      // The first write acknowledged of those sent after the primary died.
      const resumed = () => load!.acked.find((w) => w.started >= killed)?.at;
      await until(
        () => resumed() !== undefined,
        20_000,
        'a write sent after the kill acknowledged',
      );
      const resumedMs = resumed()! - promoted;
      const ready = await Promise.all(instances.list.map(async (i) => readyWithin(i, 10_000)));
      const ackedAtResume = load.acked.length;
      await until(
        () => load!.acked.length >= ackedAtResume + WRITES_AFTER,
        20_000,
        'writes after the failover',
      );
      await load.stop();
      const finished = load;
      load = undefined;
      const present = await exactlyOnce(finished, 'failover', pg.standby.query);
      assert.deepEqual(instances.exits, [], 'no instance exited');
      t.diagnostic(
        `failover: primary killed (pg_ctl stop -m immediate, ${killMs} ms), standby promoted ` +
          `${promoteMs} ms after the kill; the first write sent after the kill acknowledged ` +
          `${resumedMs} ms after the promotion; /readyz 200 on A/B ${ready.join('/')} ms after that; writes: ` +
          `${finished.acked.length} acknowledged of ${finished.attempts} attempts ` +
          `(${finished.failures} failed and retried), ${present} present on the promoted ` +
          `standby, 0 doubled, 0 lost; 0 of 2 instances exited`,
      );
    } finally {
      await load?.stop();
    }
  });
}
