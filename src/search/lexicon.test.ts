// The lexicons an instance keeps in memory are bounded: the least recently searched communities'
// are dropped past the bounds, and read again from their stored rows when searched again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../store/open.ts';
import { Lexicon } from './lexicon.ts';
import { Profiles } from './profiles.ts';

test('a lexicon keeps at most its bounds of communities in memory, the most recently searched', async () => {
  const { store, db } = await openDatabase('sqlite::memory:');
  try {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await store.communities.create({ slug: `c${i}`, name: 'C', visibility: 'public' });
      const scope = store.community(c.id);
      const category = await scope.categories.create({ slug: 'g', name: 'G', kind: 'discussion' });
      for (const title of ['lantern repair', 'lantern wick', 'wick trimming'] as const) {
        const t = await scope.topics.create({
          categoryId: category.id,
          slug: title.replace(' ', '-'),
          title,
          author: { kind: 'person', id: null, name: 'Ada' },
        });
        await scope.posts.create({
          topicId: t.id,
          author: { kind: 'person', id: null, name: 'Ada' },
          body: `${title} notes`,
        });
      }
      ids.push(c.id);
    }
    const lexicon = new Lexicon(db, new Profiles(db), { maxModels: 2 });
    for (const id of ids) await lexicon.ready([id]);
    assert.equal(lexicon.stats().communities, 2);
    // The last two learned are kept; an older one is not in memory, but its stored row is.
    assert.equal(lexicon.learned([ids[0]!]).size, 0);
    assert.equal(lexicon.learned([ids[4]!]).size, 1);
    await lexicon.ready([ids[0]!]);
    assert.equal(lexicon.learned([ids[0]!]).get(ids[0]!)?.df.get('lantern'), 2);
    assert.equal(lexicon.stats().communities, 2);
    const bytes = new Lexicon(db, new Profiles(db), { maxBytes: 1 });
    for (const id of ids) await bytes.ready([id]);
    assert.equal(bytes.stats().communities, 1, 'past the byte bound only the newest stays');
  } finally {
    await store.close();
  }
});
