// What every Store adapter does for reading: bookmarks (migration 0102) are one per person and
// topic or post, newest first by keyset pages, each person's and each community's own. sqlite.test.ts and postgres.test.ts run it against a real engine each.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/store/repositories.ts';
import type { StoreFactory } from './contract.ts';

export function defineReadingContract(engine: string, factory: StoreFactory): void {
  describe(`bookmarks and post revisions store contract (${engine})`, () => {
    let store: Store;
    before(async () => {
      store = await factory.open();
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    const community = () =>
      store.communities.create({
        slug: `r-${randomBytes(4).toString('hex')}`,
        name: 'Reading',
        visibility: 'public',
      });

    /** A community with one topic of `replies` + 1 posts. */
    async function topicWith(replies: number) {
      const c = await community();
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const author = { kind: 'person' as const, id: null, name: 'Ada' };
      const topic = await scope.topics.create({
        categoryId: category.id,
        slug: `t-${randomBytes(3).toString('hex')}`,
        title: 'A topic',
        author,
      });
      const posts = [];
      for (let i = 0; i <= replies; i++)
        posts.push(await scope.posts.create({ topicId: topic.id, author, body: `post ${i}` }));
      return { c, scope, topic, posts };
    }

    test('a bookmark is kept once per person and target, and removed', async () => {
      const { scope, topic, posts } = await topicWith(1);
      const ada = await store.people.create({ displayName: 'Ada' });
      const bob = await store.people.create({ displayName: 'Bob' });
      const first = await scope.bookmarks.add(ada.id, { kind: 'topic', id: topic.id });
      assert.equal(first.created, true);
      assert.deepEqual(first.bookmark.target, { kind: 'topic', id: topic.id });
      assert.match(first.bookmark.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const again = await scope.bookmarks.add(ada.id, { kind: 'topic', id: topic.id });
      assert.equal(again.created, false);
      assert.equal(again.bookmark.id, first.bookmark.id, 'the first row stays');
      await scope.bookmarks.add(ada.id, { kind: 'post', id: posts[1]!.id });
      assert.deepEqual(
        (await scope.bookmarks.among(ada.id, [topic.id, posts[0]!.id, posts[1]!.id]))
          .map((b) => b.target.id)
          .sort(),
        [topic.id, posts[1]!.id].sort(),
      );
      assert.deepEqual(await scope.bookmarks.among(bob.id, [topic.id]), [], "not Bob's");
      assert.equal((await scope.bookmarks.list(bob.id, { limit: 10 })).items.length, 0);
      const other = store.community((await community()).id);
      assert.equal((await other.bookmarks.list(ada.id, { limit: 10 })).items.length, 0);
      assert.equal(await other.bookmarks.remove(ada.id, { kind: 'topic', id: topic.id }), false);
      assert.equal(await scope.bookmarks.remove(bob.id, { kind: 'topic', id: topic.id }), false);
      assert.equal(await scope.bookmarks.remove(ada.id, { kind: 'post', id: topic.id }), false);
      assert.equal(await scope.bookmarks.remove(ada.id, { kind: 'topic', id: topic.id }), true);
      assert.equal(await scope.bookmarks.remove(ada.id, { kind: 'topic', id: topic.id }), false);
      const left = await scope.bookmarks.list(ada.id, { limit: 10 });
      assert.deepEqual(
        left.items.map((b) => b.target),
        [{ kind: 'post', id: posts[1]!.id }],
      );
      assert.equal((await scope.bookmarks.list('not-a-uuid', { limit: 10 })).items.length, 0);
      assert.deepEqual(await scope.bookmarks.among(ada.id, ['not-a-uuid']), []);
    });

    test('bookmarks list newest first in keyset pages that neither skip nor repeat', async () => {
      const { scope, topic, posts } = await topicWith(4);
      const ada = await store.people.create({ displayName: 'Ada' });
      const targets = [topic.id, ...posts.map((p) => p.id)];
      for (const [i, id] of targets.entries()) {
        await scope.bookmarks.add(ada.id, i === 0 ? { kind: 'topic', id } : { kind: 'post', id });
        // Distinct milliseconds: rows created in the same one have no order to check.
        await new Promise((r) => setTimeout(r, 3));
      }
      const seen: string[] = [];
      let after;
      for (let n = 0; n < 5; n++) {
        const page = await scope.bookmarks.list(ada.id, { after, limit: 2 });
        seen.push(...page.items.map((b) => b.target.id));
        if (!page.next) break;
        after = page.next;
      }
      assert.deepEqual(seen, targets.slice().reverse());
    });

    test('a post keeps its versions numbered from 1, each with its author, in its community', async () => {
      const { c, scope, posts } = await topicWith(1);
      const question = posts[0]!;
      const reply = posts[1]!;
      const ada = { kind: 'person' as const, id: null, name: 'Ada' };
      const mod = { kind: 'person' as const, id: null, name: 'Mo' };
      assert.deepEqual(await scope.postRevisions.list(reply.id), [], 'never edited: none');
      const one = await scope.postRevisions.add(question.id, {
        title: 'A topic',
        body: 'post 0',
        author: ada,
        createdAt: question.createdAt,
      });
      assert.equal(one.revision, 1);
      assert.equal(one.createdAt, question.createdAt);
      await scope.postRevisions.add(question.id, {
        title: 'A better topic',
        body: 'post zero',
        author: mod,
      });
      await scope.postRevisions.add(reply.id, { title: null, body: 'first', author: ada });
      const versions = await scope.postRevisions.list(question.id);
      assert.deepEqual(
        versions.map((v) => [v.revision, v.title, v.body, v.author.name]),
        [
          [1, 'A topic', 'post 0', 'Ada'],
          [2, 'A better topic', 'post zero', 'Mo'],
        ],
      );
      assert.match(versions[1]!.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.deepEqual(
        (await scope.postRevisions.list(reply.id)).map((v) => [v.revision, v.title]),
        [[1, null]],
      );
      const other = store.community((await community()).id);
      assert.deepEqual(await other.postRevisions.list(question.id), [], 'not in another community');
      await assert.rejects(
        other.postRevisions.add(question.id, { title: null, body: 'x', author: ada }),
        /post not found/,
      );
      assert.deepEqual(await scope.postRevisions.list('not-a-uuid'), []);
      void c;
    });
  });
}
