// Reads on a PostgreSQL hot standby (HAMLET_DATABASE_REPLICA_URL): a real primary and a standby made
// with `pg_basebackup -R`, which applies each commit 1.5 s late (recovery_min_apply_delay), so a read
// that went to it misses what was just written, and one that went to the primary sees it. Three
// `hamlet serve` instances: A and B take reads from a standby up to 5 s behind, C only up to 0.5 s.
// Shown: a writer reads its own write at once, on its instance (A) and on another (B, which hears
// of the write by NOTIFY: without it, B would read the standby); another caller's read of it 0.8 s
// on misses it on A (served by the standby) and sees it on C (the standby is past C's bound: the
// primary); the share of a read load's statements the standby ran (each server logs its
// statements); and the standby's loss absorbed (no read fails), reads going back to it once it is
// up again. Figures go out as diagnostics.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { callTool, type ToolAnswer } from '../security/mcp.ts';
import { startInstances, type Instance, type Instances } from './instances.ts';
import { replicationMissing, startReplicated, type PgNode, type Replicated } from './pg-standby.ts';
import { seedCommunity } from './seed.ts';
import { createTopic, until } from './streams.ts';

const APPLY_DELAY_MS = 1_500;
const missing = replicationMissing();

if (missing) {
  if (process.env.CI === 'true') test('replica reads', () => assert.fail(`CI=true but ${missing}`));
  else test('replica reads', { skip: missing }, () => {});
} else {
  let pg: Replicated;
  let instances: Instances;
  let writer: string;
  let reader: string;
  let startup = '';
  before(async () => {
    const started = performance.now();
    pg = await startReplicated({
      standbySettings: [`recovery_min_apply_delay=${APPLY_DELAY_MS}ms`],
    });
    const pgMs = Math.round(performance.now() - started);
    const seeded = await seedCommunity(pg.primary.url, { reader: true });
    writer = seeded.key;
    reader = seeded.readerKey!;
    instances = await startInstances(
      pg.primary.url,
      {
        HAMLET_DATABASE_REPLICA_URL: pg.standby.url,
        HAMLET_DATABASE_REPLICA_MAX_LAG_MS: '5000',
        HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '100000',
        HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '100000',
        HAMLET_PG_POOL_SIZE: '5',
      },
      ['A', 'B', 'C'],
      (name): Record<string, string> =>
        name === 'C' ? { HAMLET_DATABASE_REPLICA_MAX_LAG_MS: '500' } : {},
    );
    startup = `primary and standby up in ${pgMs} ms, seeded and three instances up in ${Math.round(performance.now() - started - pgMs)} ms`;
  });
  after(async () => {
    await instances?.stop();
    await pg?.stop();
  });

  const call = async (i: Instance, key: string, tool: string, args: object) =>
    callTool(i.url('/c/acme/api/mcp'), tool, args, key);
  const found = (a: ToolAnswer) => a.isError === false;
  const named = (name: string) => instances.list.find((i) => i.name === name)!;

  /** What a server ran for Hamlet's queries since last asked (its own polls left out). */
  const ran = (node: PgNode, app: string) =>
    node
      .statements()
      .filter((s) => s.startsWith(`${app}|`))
      .map((s) => s.slice(app.length + 1))
      .filter((s) => !/^select pg_(last_wal_replay|current_wal)_lsn\(\)::text as lsn/.test(s));

  test('reads go to the standby; a writer reads its own write at once, on any instance', async (t) => {
    t.diagnostic(`replicas: ${startup}`);
    const [a, b, c] = ['A', 'B', 'C'].map(named) as [Instance, Instance, Instance];
    const seen = await createTopic(a, writer, 'Replica warm-up: is the standby reading?');
    ran(pg.standby, 'hamlet replica');
    await until(
      async () =>
        found(await call(a, reader, 'get_topic', { topic: seen.id })) &&
        ran(pg.standby, 'hamlet replica').some((s) => /^select/i.test(s)),
      15_000,
      "A's reader reads on the standby",
    );

    const rounds = 3;
    let own = 0;
    let ownElsewhere = 0;
    let missedOnA = 0;
    let seenOnC = 0;
    const visibleAfter: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const topic = await createTopic(a, writer, `Replica round ${i}: who sees this topic?`);
      const written = performance.now();
      // At once, long before the standby applies it (1.5 s):
      const [mine, mineOnB] = await Promise.all([
        call(a, writer, 'get_topic', { topic: topic.id }),
        call(b, writer, 'get_topic', { topic: topic.id }),
      ]);
      own += found(mine) ? 1 : 0;
      ownElsewhere += found(mineOnB) ? 1 : 0;
      // 0.8 s on, the standby is that far behind: within A's bound (5 s), past C's (0.5 s).
      await new Promise((r) => setTimeout(r, written + 800 - performance.now()));
      const [othersOnA, othersOnC] = await Promise.all([
        call(a, reader, 'get_topic', { topic: topic.id }),
        call(c, reader, 'get_topic', { topic: topic.id }),
      ]);
      missedOnA += found(othersOnA) ? 0 : 1;
      seenOnC += found(othersOnC) ? 1 : 0;
      await until(
        async () => found(await call(a, reader, 'get_topic', { topic: topic.id })),
        10_000,
        "A's reader sees the topic once the standby applied it",
      );
      visibleAfter.push(Math.round(performance.now() - written));
    }
    assert.equal(own, rounds, 'the writer reads its write at once on its instance (A)');
    assert.equal(
      ownElsewhere,
      rounds,
      'the writer reads its write at once on another instance (B)',
    );
    assert.equal(missedOnA, rounds, "another caller's read on A 0.8 s on went to the standby");
    assert.equal(seenOnC, rounds, 'on C (bound 0.5 s) the standby 0.8 s behind takes no reads');

    // A read load of another caller on A: which server ran its statements.
    ran(pg.standby, 'hamlet replica');
    ran(pg.primary, 'hamlet');
    const calls = 20;
    for (let i = 0; i < calls; i++) {
      const answers = await Promise.all([
        call(a, reader, 'get_topic', { topic: seen.id }),
        call(a, reader, 'list_topics', {}),
        call(a, reader, 'search_community', { query: 'standby reading topic' }),
      ]);
      for (const answer of answers) assert.equal(answer.isError, false, JSON.stringify(answer));
    }
    const onStandby = ran(pg.standby, 'hamlet replica');
    const onPrimary = ran(pg.primary, 'hamlet');
    const selects = (list: string[]) => list.filter((s) => /^\s*(select|with)\b/i.test(s)).length;
    const share = selects(onStandby) / (selects(onStandby) + selects(onPrimary));
    assert.ok(share > 0.5, `most of the read load's selects ran on the standby (${share})`);
    t.diagnostic(
      `replicas: the writer read its write at once ${own}/${rounds} on A and ${ownElsewhere}/${rounds} on B; ` +
        `another caller's read 0.8 s on missed it on A ${missedOnA}/${rounds} (the standby, applying 1.5 s late; ` +
        `seen there ${visibleAfter.join('/')} ms after the write) and saw it on C (bound 0.5 s) ${seenOnC}/${rounds}; ` +
        `a read load of ${calls * 3} calls (get_topic, list_topics, search_community) on A: ` +
        `${selects(onStandby)} selects on the standby, ${selects(onPrimary)} on the primary ` +
        `(${Math.round(share * 100)}% on the standby; ${onPrimary.length - selects(onPrimary)} other statements on the primary)`,
    );
  });

  test("the standby's loss is absorbed: reads go on, on the primary, without an error", async (t) => {
    const [a, b] = ['A', 'B'].map(named) as [Instance, Instance];
    const topic = await createTopic(a, writer, 'Replica loss: still readable when it goes?');
    await until(
      async () => found(await call(a, reader, 'get_topic', { topic: topic.id })),
      10_000,
      'the topic readable by another caller',
    );
    let stopped = false;
    const failures: string[] = [];
    const latencies: number[] = [];
    let reads = 0;
    const loop = async (i: Instance) => {
      for (let n = 0; !stopped; n++) {
        const started = performance.now();
        const [tool, args] =
          n % 3 === 0
            ? ['get_topic', { topic: topic.id }]
            : n % 3 === 1
              ? ['list_topics', {}]
              : ['search_community', { query: 'still readable' }];
        const answer = await call(i, reader, tool, args).catch((err: Error) => ({
          status: 0,
          isError: true,
          structured: err.message,
        }));
        latencies.push(performance.now() - started);
        reads++;
        if (answer.isError !== false)
          failures.push(`${i.name} ${tool}: ${JSON.stringify(answer).slice(0, 300)}`);
      }
    };
    const loops = [a, b, a, b].map(loop);
    await new Promise((r) => setTimeout(r, 1_000));
    const readsBefore = reads;
    ran(pg.standby, 'hamlet replica');
    const killed = performance.now();
    await pg.standby.kill();
    const lostAt = latencies.length;
    await new Promise((r) => setTimeout(r, 2_000));
    stopped = true;
    await Promise.all(loops);
    assert.deepEqual(failures, [], 'no read failed');
    const around = Math.round(Math.max(...latencies.slice(Math.max(0, lostAt - 8))));
    const readsAfter = reads - readsBefore;

    const restarted = performance.now();
    await pg.standby.start();
    const upMs = Math.round(performance.now() - restarted);
    ran(pg.standby, 'hamlet replica');
    await until(
      async () => {
        await call(a, reader, 'list_topics', {});
        return ran(pg.standby, 'hamlet replica').some((s) => /^select/i.test(s));
      },
      15_000,
      'reads on the standby again once it is up',
    );
    t.diagnostic(
      `replicas: standby killed (pg_ctl stop -m immediate) under 4 read loops on A and B: ` +
        `${reads} reads, 0 failed (${readsBefore} in the second before, ${readsAfter} in the ` +
        `${Math.round(performance.now() - killed) - upMs} ms after); slowest read around the loss ` +
        `${around} ms; restarted in ${upMs} ms, reads on it again ` +
        `${Math.round(performance.now() - restarted - upMs)} ms later`,
    );
  });
}
