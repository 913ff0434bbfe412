// The LISTEN/NOTIFY channel between instances keeps its listening connection for as long as it is
// open: its backend terminated again and again, it comes back each time (and says so, so streams
// re-sync), and a database it cannot reach at all is tried again and again, not once. The bus over
// it turns each comeback into a local `resync`, never sent to other instances.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { channelBus, type BusMessage } from '../../src/mcp/bus.ts';
import { openPgChannel, type PgChannel } from '../../src/store/pg-channel.ts';
import { freePort } from '../helpers/serve.ts';
import { freshPostgresDatabase } from './pg-database.ts';

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('a channel that cannot reach its database keeps trying (with a capped backoff), not once', async () => {
  const port = await freePort(); // nothing listens there
  const problems: string[] = [];
  const channel = openPgChannel(`postgres://nobody@127.0.0.1:${port}/none`, 'hamlet_test', {
    onProblem: (p) => problems.push(p),
    minRetryMs: 10,
    maxRetryMs: 40,
  });
  void channel.listen(() => {});
  try {
    await until(() => problems.length >= 6, 5_000, 'six attempts');
    assert.notEqual(channel.state(), 'listening');
    assert.ok(
      problems.every((p) => /LISTEN connection failed/.test(p)),
      problems.join('\n'),
    );
    // The delay doubles up to its cap.
    const delays = problems.map((p) => Number(/retrying in (\d+) ms/.exec(p)?.[1]));
    assert.deepEqual(delays.slice(0, 4), [10, 20, 40, 40]);
  } finally {
    await channel.close();
  }
  assert.equal(channel.state(), 'closed');
});

const setup = await freshPostgresDatabase('channel');
if (!setup.ok) {
  if (setup.fail) test('the LISTEN connection comes back', () => assert.fail(setup.reason));
  else test('the LISTEN connection comes back', { skip: setup.reason }, () => {});
} else {
  let admin: pg.Client;
  before(async () => {
    admin = new pg.Client({ connectionString: setup.url });
    admin.on('error', () => undefined);
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await setup.drop();
  });

  const listenBackends = async () =>
    (
      await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity where application_name = $1 and query ilike 'listen %'`,
        [`hamlet listen ${process.pid}`],
      )
    ).rows.map((r) => r.pid);

  /** Publishes from a second channel until `heard` holds (the listener may be reconnecting). */
  async function heardAcross(from: PgChannel, heard: () => boolean, text: string) {
    await until(
      async () => {
        await from.publish(text);
        return heard();
      },
      5_000,
      `"${text}" heard`,
    );
  }

  test('its LISTEN backend terminated five times, the channel comes back every time', async () => {
    const reconnects: number[] = [];
    const received: string[] = [];
    const problems: string[] = [];
    const channel = openPgChannel(setup.url, 'hamlet_test', {
      onProblem: (p) => problems.push(p),
      minRetryMs: 20,
      maxRetryMs: 200,
    });
    const sender = openPgChannel(setup.url, 'hamlet_test');
    channel.onReconnect(() => reconnects.push(Date.now()));
    try {
      await channel.listen((payload) => received.push(payload));
      assert.equal(channel.state(), 'listening');
      for (let round = 1; round <= 5; round++) {
        const [pid] = await listenBackends();
        assert.ok(pid, `round ${round}: a LISTEN backend to terminate`);
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await until(() => reconnects.length === round, 5_000, `reconnect ${round}`);
        await until(
          async () => (await listenBackends()).some((p) => p !== pid),
          5_000,
          `round ${round}: a new LISTEN backend`,
        );
        assert.equal(channel.state(), 'listening');
        await heardAcross(sender, () => received.includes(`after ${round}`), `after ${round}`);
      }
      assert.equal((await listenBackends()).length, 1, 'one LISTEN connection, not a pile');
      assert.ok(problems.some((p) => /LISTEN connection lost/.test(p)));
    } finally {
      await channel.close();
      await sender.close();
    }
    await until(
      async () => (await listenBackends()).length === 0,
      5_000,
      'closed: its LISTEN gone',
    );
  });

  test('the bus over the channel tells its own subscribers to re-sync after a reconnect, and only them', async () => {
    const a = openPgChannel(setup.url, 'hamlet_bus_test', { minRetryMs: 20 });
    const b = openPgChannel(setup.url, 'hamlet_bus_test', { minRetryMs: 20 });
    const onA: BusMessage[] = [];
    const onB: BusMessage[] = [];
    const busA = channelBus(a);
    const busB = channelBus(b);
    busA.subscribe((m) => onA.push(m));
    busB.subscribe((m) => onB.push(m));
    try {
      await until(() => a.state() === 'listening' && b.state() === 'listening', 5_000, 'both up');
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = $1 and query ilike 'listen hamlet_bus_test%'
          order by backend_start limit 1`,
        [`hamlet listen ${process.pid}`],
      );
      await until(() => onA.length + onB.length > 0, 5_000, 'a resync');
      const resynced = [...onA, ...onB].filter((m) => m.t === 'resync');
      assert.equal(resynced.length, 1, 'the reconnected side alone re-syncs');
      // Messages still cross both ways afterwards.
      await until(
        async () => {
          busA.publish({ t: 'closed', session: 's-a' });
          busB.publish({ t: 'closed', session: 's-b' });
          await new Promise((r) => setTimeout(r, 50));
          return onB.some((m) => m.t === 'closed') && onA.some((m) => m.t === 'closed');
        },
        5_000,
        'messages cross after the reconnect',
      );
    } finally {
      await a.close();
      await b.close();
    }
  });
}
