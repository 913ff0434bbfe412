// hamlet_bm25 with a scope's statistics is FTS5's bm25 when the scope is the whole table: the
// same scores for the same matches, documents long enough for multi-byte varints included (their
// lengths and the table's totals are read from FTS5's own records).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../store/open.ts';
import { addFillerCommunities } from '../../test/helpers/filler-communities.ts';
import { parseQuery } from './query.ts';
import { SqliteSearchIndex } from './sqlite-index.ts';
import { SqliteStatistics, varints } from './sqlite-statistics.ts';
import { matchQuery, rankExpression, rowidScope } from './sqlite-rowids.ts';

test('SQLite varints as FTS5 writes them: most significant 7 bits first, a ninth byte whole', () => {
  assert.deepEqual(varints(Uint8Array.from([0x05, 0x81, 0x00, 0xff, 0x7f])), [5, 128, 16383]);
  // Nine bytes: the last one's high bit is a value bit, not a continuation.
  assert.deepEqual(
    varints(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x85, 0x07])),
    [133, 7],
  );
});

test('a community alone ranks by hamlet_bm25 exactly as by FTS5 bm25 (long documents too)', async () => {
  const { store, db } = await openDatabase('sqlite::memory:');
  try {
    const words = 'lantern wick oil brass glass flame chimney burner mantle kerosene'.split(' ');
    let seed = 3;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const text = (n: number) =>
      Array.from({ length: n }, () => words[Math.floor(next() ** 2 * words.length)]).join(' ');
    const [id] = await addFillerCommunities(db, {
      count: 1,
      prefix: 'lamps',
      // 1,200 posts, some of 400 words (column sizes past 127, totals past 2^14 and 2^21).
      topics: () =>
        Array.from({ length: 1_200 }, (_, i) => ({
          title: text(4),
          body: text(i % 3 ? 30 : 400),
        })),
    });
    const index = new SqliteSearchIndex(db);
    assert.equal(index.ranking.kind, 'hamlet');
    const scope = (await rowidScope(db, { kind: 'communities', ids: [id!] }))!;
    const statistics = new SqliteStatistics(db);
    for (const q of ['brass chimney', 'kerosene', 'wick "oil lantern"', 'flame -glass']) {
      const { text: match, phrases } = matchQuery(parseQuery(q));
      const args = await statistics.rankArguments(scope, phrases);
      const ranked = async (rank: ReturnType<typeof rankExpression>) =>
        (
          await sql<{ rowid: number; s: number }>`
            select rowid, ${rank} as s from search_fts where search_fts match ${match}
            order by s desc, rowid limit 50`.execute(db)
        ).rows;
      const ours = await ranked(rankExpression({ kind: 'hamlet', args }));
      const theirs = await ranked(rankExpression({ kind: 'fts5' }));
      assert.ok(ours.length > 0, q);
      assert.deepEqual(
        ours.map((r) => r.rowid),
        theirs.map((r) => r.rowid),
        q,
      );
      ours.forEach((r, i) => assert.ok(Math.abs(r.s - theirs[i]!.s) < 1e-9, `${q}: ${r.s}`));
    }
    // The network's size comes from FTS5's averages record: the same average length.
    const [communityAvg] = await statistics.rankArguments(scope, []);
    const [publicAvg] = await statistics.rankArguments({ kind: 'public' }, []);
    assert.ok(Math.abs(communityAvg! - publicAvg!) < 1e-9, `${communityAvg} vs ${publicAvg}`);
  } finally {
    await store.close();
  }
});
