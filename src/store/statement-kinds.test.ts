// Which statements may run on a standby: plain reads only; anything that writes, locks, takes a
// sequence value, notifies or needs the primary's WAL stays on the primary. Transaction-local
// settings are told apart, and the tables a write touches are named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLocalSetting, isPlainRead, mentions, tablesWritten } from './statement-kinds.ts';

test('plain reads may go to a standby; writes, locks and the like may not', () => {
  for (const read of [
    'select "id" from "topics" where "community_id" = $1',
    '  SELECT count(*) FROM posts',
    'with hits as materialized (select 1) select * from hits',
    '(select 1) union (select 2)',
    'select updated_at, deleted_at, created_at from topics',
  ])
    assert.equal(isPlainRead(read), true, read);
  for (const write of [
    'insert into "posts" ("id") values ($1)',
    'update topics set title = $1',
    'delete from sessions',
    'with gone as (delete from q returning id) select * from gone',
    'select id from communities where id = $1 for update',
    'select * from d for update of d skip locked',
    "select nextval('search_generation')",
    "select pg_notify('hamlet_reads', $1)",
    'select pg_current_wal_lsn()',
    'select pg_advisory_xact_lock(1)',
    "select set_config('x', 'y', false)",
    'select * into archive from posts',
    'begin',
    'set enable_seqscan = off',
  ])
    assert.equal(isPlainRead(write), false, write);
});

test('transaction-local settings, and the tables a write names', () => {
  assert.equal(isLocalSetting('set local enable_seqscan = off'), true);
  assert.equal(isLocalSetting("select set_config('parallel_tuple_cost', '0.01', true)"), true);
  assert.equal(isLocalSetting("select set_config('parallel_tuple_cost', '0.01', false)"), false);
  assert.equal(isLocalSetting('set enable_seqscan = off'), false);
  assert.deepEqual(tablesWritten('insert into "search_profiles" ("topic_id") values ($1)'), [
    'search_profiles',
  ]);
  assert.deepEqual(
    tablesWritten('with d as (delete from search_profile_queue) update public."topics" set x = 1'),
    ['search_profile_queue', 'topics'],
  );
  assert.deepEqual(tablesWritten('select pg_advisory_lock(1)'), ['*']);
  assert.equal(mentions('select * from "search_profiles" p', 'search_profiles'), true);
  assert.equal(mentions('select * from search_profiles_old', 'search_profiles'), false);
  assert.equal(mentions('select 1', '*'), true);
});
