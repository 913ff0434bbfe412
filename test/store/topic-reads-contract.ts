// What every Store adapter does for read tracking (migration 0116), run on each engine by
// topic-reads.test.ts: each person's reads of topics (an upsert whose
// position never moves back, one person's never another's, one community's never another's), the
// activity lists show (each topic's last shown post and its views, in one statement for a page of
// topics), visits for "new since your last visit", and views added in batches.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/store/repositories.ts';
import type { StoreFactory } from './contract.ts';

export function defineTopicReadsContract(engine: string, factory: StoreFactory): void {
  describe(`topic reads contract (${engine})`, () => {
    let store: Store;
    before(async () => {
      store = await factory.open();
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    async function community() {
      const c = await store.communities.create({
        slug: `tr-${randomBytes(4).toString('hex')}`,
        name: 'Reads',
        visibility: 'public',
      });
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      return { c, scope, category };
    }

    async function topicIn(
      where: Awaited<ReturnType<typeof community>>,
      authors: { kind: 'person' | 'agent'; id: string | null; name: string }[],
    ) {
      const topic = await where.scope.topics.create({
        categoryId: where.category.id,
        slug: `t-${randomBytes(3).toString('hex')}`,
        title: 'A topic',
        author: authors[0]!,
      });
      const posts = [];
      for (const [i, author] of authors.entries())
        posts.push(
          await where.scope.posts.create({ topicId: topic.id, author, body: `post ${i}` }),
        );
      return { topic, posts };
    }

    test('a read is one row per person and topic whose position never moves back', async () => {
      const here = await community();
      const ada = await store.people.create({ displayName: 'Ada' });
      const bob = await store.people.create({ displayName: 'Bob' });
      const person = { kind: 'person' as const, id: ada.id, name: 'Ada' };
      const { topic } = await topicIn(here, [person, person, person]);
      const other = await topicIn(here, [person]);
      await here.scope.topicReads.opened(ada.id, topic.id, 3, '2026-12-01T10:00:00.000Z');
      await here.scope.topicReads.opened(ada.id, topic.id, 1, '2026-12-02T10:00:00.000Z');
      const reads = await here.scope.topicReads.among(ada.id, [topic.id, other.topic.id]);
      assert.deepEqual(reads.get(topic.id), {
        lastPosition: 3,
        readAt: '2026-12-02T10:00:00.000Z',
      });
      assert.equal(reads.has(other.topic.id), false, 'a topic never opened has no read');
      assert.equal((await here.scope.topicReads.among(bob.id, [topic.id])).size, 0, "not Bob's");
      const elsewhere = await community();
      assert.equal(
        (await elsewhere.scope.topicReads.among(ada.id, [topic.id])).size,
        0,
        "not another community's",
      );
      await here.scope.topicReads.opened(ada.id, topic.id, 5);
      assert.equal(
        (await here.scope.topicReads.among(ada.id, [topic.id])).get(topic.id)?.lastPosition,
        5,
      );
    });

    test('activity: each topic’s last shown post and its author, and views added in batches', async () => {
      const here = await community();
      const ada = { kind: 'person' as const, id: null, name: 'Ada' };
      const bot = { kind: 'agent' as const, id: null, name: 'helper-bot' };
      const a = await topicIn(here, [ada, bot]);
      const b = await topicIn(here, [bot, ada, ada]);
      let activity = await here.scope.topicReads.activity([a.topic.id, b.topic.id]);
      assert.equal(activity.get(a.topic.id)?.lastAuthor.name, 'helper-bot');
      assert.equal(activity.get(a.topic.id)?.lastAuthor.kind, 'agent');
      assert.equal(activity.get(a.topic.id)?.lastPosition, 2);
      assert.equal(activity.get(b.topic.id)?.lastPosition, 3);
      assert.equal(activity.get(b.topic.id)?.views, 0);
      // A deleted last post leaves the one before it as the last.
      await here.scope.moderatorActions.setPostDeleted(b.posts[2]!.id, {
        at: '2026-12-01T10:00:00.000Z',
        by: 'moderator',
        reason: 'spam',
      });
      await store.topicViews.add([
        { communityId: here.c.id, topicId: a.topic.id, views: 3 },
        { communityId: here.c.id, topicId: b.topic.id, views: 1 },
        { communityId: here.c.id, topicId: a.topic.id, views: 2 },
      ]);
      await store.topicViews.add([{ communityId: here.c.id, topicId: a.topic.id, views: 4 }]);
      activity = await here.scope.topicReads.activity([a.topic.id, b.topic.id]);
      assert.equal(activity.get(a.topic.id)?.views, 9);
      assert.equal(activity.get(b.topic.id)?.views, 1);
      assert.equal(
        activity.get(b.topic.id)?.lastPosition,
        2,
        'the deleted last post is passed over',
      );
      // Views of a topic gone, or named with another community, are left out without failing.
      const elsewhere = await community();
      await store.topicViews.add([
        { communityId: elsewhere.c.id, topicId: a.topic.id, views: 100 },
        { communityId: here.c.id, topicId: '00000000-0000-4000-8000-000000000000', views: 1 },
      ]);
      assert.equal((await here.scope.topicReads.activity([a.topic.id])).get(a.topic.id)?.views, 9);
      assert.equal((await elsewhere.scope.topicReads.activity([a.topic.id])).size, 0);
    });

    test('a visit: the first has no previous one; a new one after the gap remembers the last', async () => {
      const here = await community();
      const ada = await store.people.create({ displayName: 'Ada' });
      const reads = here.scope.topicReads;
      const hour = 3_600_000;
      assert.deepEqual(await reads.visit(ada.id, '2026-12-01T10:00:00.000Z', hour), {
        previousSeenAt: null,
      });
      assert.deepEqual(await reads.visit(ada.id, '2026-12-01T10:30:00.000Z', hour), {
        previousSeenAt: null,
      });
      assert.deepEqual(await reads.visit(ada.id, '2026-12-02T09:00:00.000Z', hour), {
        previousSeenAt: '2026-12-01T10:00:00.000Z',
      });
      assert.deepEqual(await reads.visit(ada.id, '2026-12-02T09:10:00.000Z', hour), {
        previousSeenAt: '2026-12-01T10:00:00.000Z',
      });
    });
  });
}
