// Upgrade and rollback as an operator runs them, on both engines: from the current schema
// `hamlet migrate --to <older>` reverts the later migrations; at that older schema every command but
// `migrate` (and `serve`) stops and says to run `hamlet migrate`; rows written there (as the older
// version would) survive `hamlet migrate` back up, and going down again keeps them; the whole chain
// of down-migrations runs to the first one and up again. A database a newer version migrated is
// refused with what to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../../src/config/config.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { openHamlet } from '../../src/main.ts';
import { openDatabase } from '../../src/store/open.ts';
import { runCli } from '../helpers/cli.ts';
import { postgresFromTemplate, sqliteFromTemplate } from '../helpers/template.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const OLDER = '0061_author_via';

async function cycle(url: string): Promise<void> {
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: url });
  const down = await cli('migrate', '--to', OLDER);
  assert.equal(down.code, 0, down.err);
  assert.match(down.out, /Reverted \d+ migration\(s\): .*0075_readiness_heartbeat/);
  assert.match(down.out, new RegExp(`The schema is at ${OLDER}`));

  // At the older schema nothing but `migrate` touches the database.
  const refused = await cli('community', 'create', 'ops', '--name', 'Ops');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /schema is older than this version.*Run `hamlet migrate`/);
  const status = await cli('migrate', '--status');
  assert.match(status.out, /applied {3}0061_author_via +safe under traffic +nullable columns\n/);
  assert.match(status.out, /pending {3}0075_readiness_heartbeat +safe under traffic/);
  assert.match(
    status.out,
    /pending {3}0076_retention_indexes +needs maintenance mode +plain indexes/,
  );

  // What the older version writes: a topic and its first post, with that schema's columns.
  const raw = await openDatabase(url, { migrate: false });
  const copied = await copyTopic(raw.db as unknown as Kysely<any>);
  await raw.store.close();

  // Its pending migrations include some that need maintenance mode, which this schema predates:
  // refused with the list, until the operator says every instance is stopped.
  const refusedUp = await cli('migrate');
  assert.equal(refusedUp.code, 1);
  assert.match(refusedUp.err, /cannot run under traffic:\n {2}0071_webhook_retention: /);
  assert.match(refusedUp.err, /predates maintenance mode.*--maintenance-ok/s);
  const up = await cli('migrate', '--maintenance-ok');
  assert.equal(up.code, 0, up.err);
  assert.match(up.out, /Applied \d+ migration\(s\): .*0075_readiness_heartbeat/);
  await serves(url, copied);

  // Down again: the rows stay (the columns a later migration added go with it), and up once more.
  const raw2 = await openDatabase(url, { migrate: false });
  try {
    assert.ok((await raw2.store.migrateTo(OLDER)).reverted.length > 0);
    assert.ok((await raw2.store.migrate()).length > 0);
  } finally {
    await raw2.store.close();
  }
  await serves(url, copied);

  // The whole chain down to the first migration and back up.
  const chain = await openDatabase(url, { migrate: false });
  try {
    const { reverted } = await chain.store.migrateTo('0001_content');
    assert.equal(reverted.at(-1), '0002_identity');
    await chain.store.migrate();
    const state = await chain.store.schemaState();
    assert.deepEqual([state.pending, state.unknown], [[], []]);
    // A database a newer version migrated: refused, and told what to run.
    await sql`insert into hamlet_migrations (name, timestamp) values ('9999_future', ${new Date().toISOString()})`.execute(
      chain.db,
    );
    await assert.rejects(chain.store.migrate(), /migrated by a newer version of Hamlet/);
  } finally {
    await chain.store.close();
  }
  const newer = await cli('community', 'create', 'ops', '--name', 'Ops');
  assert.equal(newer.code, 1);
  assert.match(
    newer.err,
    /migrated by a newer version of Hamlet.*9999_future.*`hamlet migrate --to 0\d+_/,
  );
}

/** Copies acme's first topic and its first post under new ids, as plain rows of whatever schema. */
async function copyTopic(db: Kysely<any>): Promise<{ topicId: string; title: string }> {
  const acme = await db
    .selectFrom('communities')
    .select('id')
    .where('slug', '=', 'acme')
    .executeTakeFirstOrThrow();
  const topic = await db
    .selectFrom('topics')
    .selectAll()
    .where('community_id', '=', acme.id)
    .limit(1)
    .executeTakeFirstOrThrow();
  const post = await db
    .selectFrom('posts')
    .selectAll()
    .where('topic_id', '=', topic.id)
    .where('position', '=', 1)
    .executeTakeFirstOrThrow();
  const topicId = randomUUID();
  const title = 'Written by the older version';
  await db
    .insertInto('topics')
    .values({ ...topic, id: topicId, slug: `older-${topicId}`, title })
    .execute();
  await db
    .insertInto('posts')
    .values({ ...post, id: randomUUID(), topic_id: topicId })
    .execute();
  return { topicId, title };
}

/** The upgraded database serves: the old rows are there, search finds the demo, a write lands. */
async function serves(url: string, copied: { topicId: string; title: string }): Promise<void> {
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' });
  const { store, services, close } = await openHamlet(config, {
    migrate: false,
    requireCurrentSchema: true,
    poolSize: 2,
  });
  try {
    const acme = (await store.communities.getBySlug('acme'))!;
    assert.equal(
      (await store.community(acme.id).topics.getById(copied.topicId))?.title,
      copied.title,
    );
    // Each category's count is what its listing holds, the topic the older version wrote included.
    const scope = store.community(acme.id);
    for (const c of await scope.categories.listWithCounts()) {
      const listed = await scope.topics.list({ categoryId: c.id, sort: 'latest', limit: 10_000 });
      assert.equal(c.topicCount, listed.items.length, `${c.slug}'s count`);
    }
    const found = await services.search.search([acme], 'webhook signature');
    assert.ok(found.results.length > 0, 'search finds the demo content');
    const written = await writeApplied(services.writes, systemActor('test'), acme, 'topic.create', {
      category: 'general',
      title: `After the upgrade ${randomUUID()}`,
      body: 'Writes land on the upgraded schema.',
    });
    assert.ok(written.topic.id);
  } finally {
    await close();
  }
}

test('upgrade and rollback (sqlite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-schema-'));
  try {
    const file = join(dir, 'hamlet.db');
    await sqliteFromTemplate(file, 'demo');
    await cycle(`sqlite:${file}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const pg = await postgresFromTemplate('schema', 'demo');
test('upgrade and rollback (postgres)', { skip: !pg.ok && !pg.fail && pg.reason }, async () => {
  if (!pg.ok) return assert.fail(pg.reason);
  try {
    await cycle(pg.url);
  } finally {
    await pg.drop();
  }
});
