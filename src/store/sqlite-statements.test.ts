// The SQLite statements Kysely runs are prepared once per SQL text: the same query shape reuses its
// statement, a statement busy in an iteration is not handed out again, a schema change is seen by a
// reused statement, and the cache starts over past its bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { reusingStatements } from './sqlite-statements.ts';

function counted() {
  const database = new BetterSqlite3(':memory:');
  let prepared = 0;
  const prepare = database.prepare.bind(database);
  database.prepare = ((sql: string) => {
    prepared++;
    return prepare(sql);
  }) as typeof database.prepare;
  return { database, prepared: () => prepared };
}

test('a query shape run again with other values is prepared once', async () => {
  const { database, prepared } = counted();
  const db = new Kysely<{ t: { id: number; name: string } }>({
    dialect: new SqliteDialect({ database: reusingStatements(database) }),
  });
  await db.schema.createTable('t').addColumn('id', 'integer').addColumn('name', 'text').execute();
  for (let i = 0; i < 5; i++)
    await db
      .insertInto('t')
      .values({ id: i, name: `n${i}` })
      .execute();
  const before = prepared();
  const names: string[] = [];
  for (let i = 0; i < 5; i++)
    names.push(
      (await db.selectFrom('t').select('name').where('id', '=', i).executeTakeFirstOrThrow()).name,
    );
  assert.deepEqual(names, ['n0', 'n1', 'n2', 'n3', 'n4']);
  assert.equal(prepared() - before, 1);
  await db.destroy();
  assert.equal(database.open, false);
});

test('a statement still iterating is not reused; a changed schema is read by a reused statement', () => {
  const { database } = counted();
  const statements = reusingStatements(database);
  database.exec('create table t (a integer); insert into t values (1), (2)');
  const sql = 'select * from t';
  const first = statements.prepare(sql);
  const rows = first.iterate([]);
  rows.next();
  const second = statements.prepare(sql);
  assert.notEqual(second, first);
  assert.deepEqual(second.all([]), [{ a: 1 }, { a: 2 }]);
  rows.return?.();
  assert.equal(statements.prepare(sql), first);
  database.exec('alter table t add column b text');
  assert.deepEqual(statements.prepare(sql).all([]), [
    { a: 1, b: null },
    { a: 2, b: null },
  ]);
});

test('past its bound the cache starts over and every statement still answers', () => {
  const { database, prepared } = counted();
  const statements = reusingStatements(database, 3);
  for (let round = 0; round < 2; round++)
    for (let i = 0; i < 5; i++)
      assert.deepEqual(statements.prepare(`select ${i} as v`).all([]), [{ v: i }]);
  assert.ok(prepared() <= 10);
  statements.prepare('select 0 as v');
  const again = prepared();
  statements.prepare('select 0 as v');
  assert.equal(prepared(), again);
});
