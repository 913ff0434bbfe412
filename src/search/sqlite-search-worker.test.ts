// The search worker on a file-backed SQLite database (./sqlite-search-worker.ts): its totals, and
// the pages of a community ranked in two parts at once, equal the in-thread path's, a search inside an open transaction counts its uncommitted
// rows, a worker that ends mid-way leaves searches answering, and closing the store ends it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { openDatabase, type OpenedDatabase } from '../store/open.ts';
import type { Database } from '../store/schema.ts';
import type { AuthorRef } from '../store/types.ts';
import { parseQuery } from './query.ts';
import { SqliteSearchIndex } from './sqlite-index.ts';
import { registerSqliteConnection } from '../store/sqlite-file.ts';
import { SearchWorker, searchWorkerOf } from './sqlite-search-worker.ts';
import { POOL, type IndexQuery } from './index.ts';

const ada: AuthorRef = { kind: 'person', id: null, name: 'Ada Lovelace' };
const FILLER = 'the quick brown fox jumps over a lazy dog near the river bank at dawn'.repeat(4);

describe('the SQLite search worker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-search-worker-'));
  const path = join(dir, 'search.db');
  let opened: OpenedDatabase;
  let index: SqliteSearchIndex;
  let worker: SearchWorker;
  /** The same file through a Kysely instance openDatabase did not register: counts in-thread. */
  let plain: Kysely<Database>;
  let plainIndex: SqliteSearchIndex;
  const ids: Record<'big' | 'small', string> = { big: '', small: '' };
  const solutions = new Map<string, string>();

  /** `n` topics whose first post says "lantern"; the first `solved` have an accepted reply saying it once in a long text (outside the pool). */
  async function fill(communityId: string, n: number, solved: number) {
    await opened.store.transaction(async (tx) => {
      const scope = tx.community(communityId);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      for (let i = 0; i < n; i++) {
        const t = await scope.topics.create({
          categoryId: category.id,
          slug: `t-${i}`,
          title: `Question ${i}`,
          author: ada,
        });
        const body = i < solved ? 'lantern lantern lantern' : `lantern note ${i} ${FILLER}`;
        await scope.posts.create({ topicId: t.id, author: ada, body });
        if (i < solved) {
          const reply = await scope.posts.create({
            topicId: t.id,
            author: ada,
            body: `${FILLER} lantern ${FILLER}`,
          });
          await scope.topics.update(t.id, { solutionPostId: reply.id });
          solutions.set(t.id, reply.id);
        }
      }
    });
  }

  const query = (ids: string[], text: string, limit = 10): IndexQuery => ({
    scope: { kind: 'communities', ids },
    query: parseQuery(text),
    filters: {},
    limit,
  });

  before(async () => {
    opened = await openDatabase(`sqlite:${path}`);
    index = new SqliteSearchIndex(opened.db);
    worker = searchWorkerOf(opened.db)!;
    for (const key of ['big', 'small'] as const) {
      const c = await opened.store.communities.create({
        slug: key,
        name: key,
        visibility: 'public',
      });
      ids[key] = c.id;
    }
    await fill(ids.big, POOL + 60, 12);
    await fill(ids.small, 40, 0);
    const reader = new BetterSqlite3(path, { readonly: true });
    plain = new Kysely<Database>({ dialect: new SqliteDialect({ database: reader }) });
    // Ranked as the store's connection ranks (Hamlet's ranking function loaded into it).
    registerSqliteConnection(plain, reader);
    plainIndex = new SqliteSearchIndex(plain);
    assert.equal(plainIndex.ranking.kind, 'hamlet');
  });

  after(async () => {
    await plain?.destroy();
    await opened?.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an in-memory database has no worker; a file does, started only when a count is needed', async () => {
    const memory = await openDatabase('sqlite::memory:');
    try {
      assert.equal(searchWorkerOf(memory.db), undefined);
    } finally {
      await memory.store.close();
    }
    assert.equal(searchWorkerOf(plain), undefined);
    assert.equal(worker.running, false, 'no search yet');
    // Fewer matches than the pool: no count, no worker.
    const few = await index.search(query([ids.small], 'lantern'));
    assert.equal(few.total, 40);
    assert.equal(worker.running, false);
  });

  test('the worker counts what the in-thread path counts, and the pages are the same', async () => {
    // The first count that is needed is made in-thread and starts the worker.
    const first = await index.search(query([ids.big], 'lantern'));
    assert.equal(first.total, POOL + 60);
    assert.equal(worker.running, true);
    // Not waited for: the next searches never yield to the event loop before they post their
    // counts, and a worker still starting takes them when it is up.
    const answeredBefore = worker.answered;
    for (const [communityIds, text] of [
      [[ids.big], 'lantern'],
      [[ids.big, ids.small], 'lantern'],
      [[ids.big], 'lantern OR note'],
      [[ids.big], 'lantern -quick'],
      [[ids.small, ids.big], 'fox lantern'],
    ] as const) {
      const q = query([...communityIds], text);
      const viaWorker = await index.search(q);
      const inThread = await plainIndex.search(q);
      assert.deepEqual(viaWorker, inThread, `${text} in ${communityIds.length} communities`);
      const head = await index.candidates(q, POOL);
      assert.deepEqual(head, await plainIndex.candidates(q, POOL));
    }
    // Each search and head asked the worker (before knowing whether its pool holds every match).
    assert.equal(worker.answered, answeredBefore + 10);
    const both = await index.search(query([ids.big, ids.small], 'lantern'));
    assert.equal(both.total, POOL + 100);
    // Accepted answers outside the pool represent their topics (the lazy rowid lookup).
    const page = await index.search(query([ids.big], 'lantern'));
    const shown = page.hits.filter((h) => solutions.has(h.topicId));
    assert.ok(shown.length > 0, 'solved topics are on the first page');
    for (const h of shown) assert.equal(h.postId, solutions.get(h.topicId));
  });

  test('a community ranked in two parts at once gives the pages and totals of one ranking', async () => {
    assert.equal(await worker.whenReady(), true);
    // Split from 2 topics: the worker ranks the newer half of `big` while this thread ranks the rest.
    const split = new SqliteSearchIndex(opened.db, { splitFromTopics: 2 });
    for (const text of ['lantern', 'lantern OR note', 'lantern -quick', 'fox lantern', 'note 7']) {
      for (const limit of [10, 50]) {
        const q = query([ids.big], text, limit);
        const before = worker.answered;
        const parts = await split.search(q);
        assert.equal(worker.answered, before + 1, `${text}: the worker ranked its part`);
        assert.deepEqual(parts, await plainIndex.search(q), `${text}, ${limit} a page`);
        assert.deepEqual(await split.candidates(q, POOL), await plainIndex.candidates(q, POOL));
        // A pool of 50: each part fills it, so each part counts its own topics.
        assert.deepEqual(await split.candidates(q, 50), await plainIndex.candidates(q, 50));
      }
    }
    const all = await split.search(query([ids.big], 'lantern'));
    assert.equal(all.total, POOL + 60);
  });

  test('inside an open transaction the search counts in-thread, its uncommitted rows included', async () => {
    assert.equal(await worker.whenReady(), true);
    const answeredBefore = worker.answered;
    await sql`begin immediate`.execute(opened.db);
    try {
      const scope = opened.store.community(ids.big);
      const [category] = await sql<{
        id: string;
      }>`select id from categories where community_id = ${ids.big}`
        .execute(opened.db)
        .then((r) => r.rows);
      for (let i = 0; i < 3; i++) {
        const t = await scope.topics.create({
          categoryId: category!.id,
          slug: `uncommitted-${i}`,
          title: `Uncommitted ${i}`,
          author: ada,
        });
        await scope.posts.create({ topicId: t.id, author: ada, body: 'lantern again' });
      }
      const found = await index.search(query([ids.big], 'lantern'));
      assert.equal(found.total, POOL + 63);
      assert.equal(worker.answered, answeredBefore, 'the worker cannot see these rows');
    } finally {
      await sql`rollback`.execute(opened.db);
    }
    const after = await index.search(query([ids.big], 'lantern'));
    assert.equal(after.total, POOL + 60);
    assert.equal(worker.answered, answeredBefore + 1, 'committed state again: the worker counts');
  });

  test('a worker that ends mid-way: the pending count falls back, searches answer in-thread', async () => {
    assert.equal(await worker.whenReady(), true);
    const thread = worker.threadForTests()!;
    const nos = (
      await sql<{
        no: number;
      }>`select no from search_communities where community_id = ${ids.big}`.execute(opened.db)
    ).rows[0]!.no;
    const pending = worker.count('"lantern"', { kind: 'communities', nos: [Number(nos)] });
    assert.ok(pending, 'the worker took the count');
    const exited = once(thread, 'exit');
    // This test waits for the exit, which an unref()'d thread does not keep the event loop up for.
    const awake = setInterval(() => undefined, 1000);
    try {
      await thread.terminate();
      await exited;
    } finally {
      clearInterval(awake);
    }
    // Terminated before or after it answered: either way the count settles, never hangs.
    const total = await pending;
    assert.ok(total === undefined || total === POOL + 60, `settled with ${total}`);
    assert.equal(worker.running, false);
    const answered = worker.answered;
    const found = await index.search(query([ids.big], 'lantern'));
    assert.equal(found.total, POOL + 60);
    assert.deepEqual(found, await plainIndex.search(query([ids.big], 'lantern')));
    assert.equal(worker.answered, answered, 'counted in-thread');
    assert.equal(await worker.whenReady(), false, 'no new worker right after a failure');
  });

  test('a worker that fails to start (no such file) is an error observed and reported, not a crash', async () => {
    const broken = new SearchWorker({
      path: join(dir, 'missing.db'),
      connection: { inTransaction: false },
      beforeClose: () => undefined,
    });
    const reports: string[] = [];
    broken.onFailure = (reason) => reports.push(reason);
    assert.equal(await broken.whenReady(), false);
    assert.equal(broken.running, false);
    assert.match(broken.lastError ?? '', /missing\.db|unable to open|does not exist/i);
    assert.deepEqual(reports, [broken.lastError], 'the reason is told once');
    assert.equal(broken.count('"lantern"', { kind: 'communities', nos: [1] }), undefined);
  });

  test('closing the store ends the worker before its connection closes', async () => {
    const otherPath = join(dir, 'other.db');
    const other = await openDatabase(`sqlite:${otherPath}`);
    const otherWorker = searchWorkerOf(other.db)!;
    assert.notEqual(otherWorker, worker, 'one worker per database');
    assert.equal(await otherWorker.whenReady(), true);
    const thread = otherWorker.threadForTests()!;
    const exited = once(thread, 'exit');
    await other.store.close();
    await exited;
    assert.equal(otherWorker.running, false);
    assert.equal(existsSync(`${otherPath}-wal`), false, "the store's connection closed last");
    assert.equal(
      otherWorker.count('"lantern"', { kind: 'communities', nos: [1] }),
      undefined,
      'closed: no count',
    );
    assert.equal(await otherWorker.whenReady(), false, 'closed: no new worker');
  });
});
