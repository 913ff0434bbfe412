// Where the replica-routing store sends each statement, on a real primary and a `pg_basebackup -R`
// standby (`select pg_is_in_recovery()` answers true only on the standby, so a read says where it
// ran): plain reads to the standby; writes to the primary, and reads of a table the store itself
// just wrote until the standby replayed it; a transaction that opens with a transaction-local
// setting and reads (how search tunes the planner), or that is declared read only, to the standby,
// any other to the primary; one that goes on to write moves to the primary and its write lands; a
// standby gone: the same reads on the primary, without an error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type OpenedDatabase } from '../../src/store/open.ts';
import type { Database } from '../../src/store/schema.ts';
import { replicationMissing, startReplicated, type Replicated } from './pg-standby.ts';
import { until } from './streams.ts';

const missing = replicationMissing();

if (missing) {
  if (process.env.CI === 'true')
    test('replica routing', () => assert.fail(`CI=true but ${missing}`));
  else test('replica routing', { skip: missing }, () => {});
} else {
  let pg: Replicated;
  let opened: OpenedDatabase;
  let reads: Kysely<Database>;
  const states: string[] = [];
  before(async () => {
    pg = await startReplicated();
    opened = await openDatabase(pg.primary.url, {
      replicas: {
        urls: [pg.standby.url],
        maxLagMs: 5_000,
        pollMs: 50,
        onState: (_host, state) => states.push(state),
      },
    });
    reads = opened.replicas!.db;
    await until(() => states.at(-1) === 'ready', 10_000, 'the standby takes reads');
  });
  after(async () => {
    await opened?.store.close();
    await pg?.stop();
  });

  /** Where a read (of `table` too, if named) ran. */
  const where = async (db: Kysely<any>, table?: string) => {
    const also = table ? sql.raw(`, (select count(*) from ${table}) as n`) : sql``;
    const r = await sql<{ r: boolean }>`select pg_is_in_recovery() as r ${also}`.execute(db);
    return r.rows[0]!.r ? 'standby' : 'primary';
  };

  test('plain reads go to the standby; writes, and reads of what this store just wrote, to the primary', async () => {
    await sql`create table routing_a (id int)`.execute(opened.db);
    await sql`create table routing_b (id int)`.execute(opened.db);
    await until(
      async () => (await where(reads, 'routing_a')) === 'standby',
      5_000,
      'a on the standby',
    );
    await sql`insert into routing_a values (1)`.execute(reads);
    assert.equal(await where(reads, 'routing_a'), 'primary', 'the table just written');
    assert.equal(await where(reads, 'routing_b'), 'standby', 'another table');
    const seen = await sql<{ n: string }>`select count(*) as n from routing_a`.execute(reads);
    assert.equal(Number(seen.rows[0]!.n), 1, 'the write is read back at once');
    await until(async () => (await where(reads, 'routing_a')) === 'standby', 5_000, 'replayed');
    assert.equal(await where(opened.db), 'primary', 'the primary store never reads a standby');
  });

  test('transactions: tuned or read-only reads on the standby, others on the primary; a write moves one', async () => {
    const tuned = await reads.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      const at = await where(tx);
      const setting = await sql<{
        s: string;
      }>`select current_setting('enable_seqscan') as s`.execute(tx);
      return { at, setting: setting.rows[0]!.s };
    });
    assert.deepEqual(tuned, { at: 'standby', setting: 'off' });
    const declared = await reads
      .transaction()
      .setAccessMode('read only')
      .execute(async (tx) => where(tx));
    assert.equal(declared, 'standby');
    assert.equal(await reads.transaction().execute(async (tx) => where(tx)), 'primary');
    const moved = await reads.transaction().execute(async (tx) => {
      await sql`select set_config('work_mem', '8MB', true)`.execute(tx);
      const first = await where(tx);
      await sql`insert into routing_b values (2)`.execute(tx);
      return { first, then: await where(tx) };
    });
    assert.deepEqual(moved, { first: 'standby', then: 'primary' });
    const rows = await pg.primary.query<{ n: string }>('select count(*) as n from routing_b');
    assert.equal(Number(rows[0]!.n), 1, 'the moved transaction wrote once');
  });

  test('the standby gone: the same reads run on the primary without an error', async () => {
    await pg.standby.kill();
    assert.equal(await where(reads), 'primary');
    const tuned = await reads.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      return where(tx);
    });
    assert.equal(tuned, 'primary');
    assert.equal(states.at(-1), 'down');
  });
}
