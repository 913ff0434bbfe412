// What every Store adapter does with moderators' records (migration 0088): a topic's lock, pin,
// soft delete, duplicate and merge state; a post's soft delete; merging one topic's posts into
// another; listings without deleted or merged topics and with pinned ones apart; the moderation
// log newest first, paged, each community's own. sqlite.test.ts and postgres.test.ts run it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/store/repositories.ts';
import type { AuthorRef } from '../../src/store/types.ts';
import type { StoreFactory } from './contract.ts';

const ada: AuthorRef = { kind: 'person', id: null, name: 'Ada' };
const mod = { kind: 'person' as const, id: null, name: 'Mo Derator' };

export function defineModeratorActionsContract(engine: string, factory: StoreFactory): void {
  describe(`moderator actions store contract (${engine})`, () => {
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
        slug: `m-${randomBytes(4).toString('hex')}`,
        name: 'Moderated',
        visibility: 'public',
      });
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      async function topic(title: string, replies = 0) {
        const t = await scope.topics.create({
          categoryId: category.id,
          slug: title.toLowerCase().replace(/\W+/g, '-'),
          title,
          author: ada,
        });
        const posts = [await scope.posts.create({ topicId: t.id, author: ada, body: title })];
        for (let i = 0; i < replies; i++)
          posts.push(await scope.posts.create({ topicId: t.id, author: ada, body: `reply ${i}` }));
        return { topic: t, posts };
      }
      return { scope, category, topic };
    }

    test('a new topic and post carry no moderation state', async () => {
      const { topic } = await community();
      const { topic: t, posts } = await topic('Fresh');
      assert.deepEqual(t.moderation, {
        lockedAt: null,
        pinnedAt: null,
        deleted: null,
        duplicateOf: null,
        mergedInto: null,
      });
      assert.equal(posts[0]!.deleted, null);
    });

    test('lock, pin, soft delete and duplicate are set and cleared', async () => {
      const { scope, topic } = await community();
      const { topic: original } = await topic('Original');
      const { topic: t } = await topic('Asked again');
      const at = '2026-12-01T10:00:00.000Z';
      const listed = async () => (await scope.categories.listWithCounts())[0]?.topicCount;
      assert.equal(await listed(), 2);
      const set = await scope.moderatorActions.setTopic(t.id, {
        lockedAt: at,
        pinnedAt: at,
        deleted: { at, by: 'Mo Derator', reason: 'spam' },
        duplicateOf: original.id,
      });
      assert.equal(set?.moderation.lockedAt, at);
      assert.equal(set?.moderation.pinnedAt, at);
      assert.deepEqual(set?.moderation.deleted, { at, by: 'Mo Derator', reason: 'spam' });
      assert.equal(set?.moderation.duplicateOf, original.id);
      assert.equal(await listed(), 1, 'a deleted topic is not counted');
      const cleared = await scope.moderatorActions.setTopic(t.id, {
        lockedAt: null,
        pinnedAt: null,
        deleted: null,
        duplicateOf: null,
      });
      assert.deepEqual(cleared?.moderation, (await scope.topics.getById(original.id))?.moderation);
      assert.equal(cleared?.moderation.deleted, null);
      assert.equal(await listed(), 2, 'a restored one is again');
      await scope.moderatorActions.setTopic(t.id, { mergedInto: original.id });
      assert.equal(await listed(), 1, 'nor a topic merged into another');
    });

    test('a post is soft-deleted with who and why, and restored', async () => {
      const { scope, topic } = await community();
      const { posts } = await topic('With a reply', 1);
      const reply = posts[1]!;
      const at = '2026-12-01T11:00:00.000Z';
      assert.equal(
        await scope.moderatorActions.setPostDeleted(reply.id, { at, by: 'Mo', reason: 'rude' }),
        true,
      );
      assert.deepEqual((await scope.posts.getById(reply.id))?.deleted, {
        at,
        by: 'Mo',
        reason: 'rude',
      });
      await scope.moderatorActions.setPostDeleted(reply.id, null);
      assert.equal((await scope.posts.getById(reply.id))?.deleted, null);
    });

    test("another community's topic or post is not touched", async () => {
      const mine = await community();
      const theirs = await community();
      const { topic: t, posts } = await theirs.topic('Theirs', 1);
      assert.equal(await mine.scope.moderatorActions.setTopic(t.id, { lockedAt: null }), undefined);
      assert.equal(await mine.scope.moderatorActions.setPostDeleted(posts[1]!.id, null), false);
      assert.equal(await mine.scope.moderatorActions.mergePosts(t.id, t.id), 0);
    });

    test('listings leave out deleted and merged topics; pinned ones are listed apart', async () => {
      const { scope, category, topic } = await community();
      const { topic: a } = await topic('Alpha');
      const { topic: b } = await topic('Beta');
      const { topic: c } = await topic('Gamma');
      const { topic: d } = await topic('Delta');
      const now = new Date().toISOString();
      await scope.moderatorActions.setTopic(a.id, {
        deleted: { at: now, by: 'Mo', reason: 'spam' },
      });
      await scope.moderatorActions.setTopic(b.id, { mergedInto: c.id });
      await scope.moderatorActions.setTopic(d.id, { pinnedAt: now });
      const listed = async (unpinned?: boolean) =>
        (await scope.topics.list({ sort: 'latest', limit: 10, unpinned })).items.map(
          (t) => t.title,
        );
      assert.deepEqual((await listed()).sort(), ['Delta', 'Gamma']);
      assert.deepEqual(await listed(true), ['Gamma']);
      assert.deepEqual(
        (await scope.moderatorActions.pinned(category.id, 5)).map((t) => t.title),
        ['Delta'],
      );
      await scope.moderatorActions.setTopic(d.id, { deleted: { at: now, by: 'Mo', reason: 'x' } });
      assert.deepEqual(await scope.moderatorActions.pinned(undefined, 5), []);
    });

    test("a merge moves the source's posts after the target's, in order, with the counters", async () => {
      const { scope, topic } = await community();
      const { topic: target } = await topic('Target', 1);
      const { topic: source, posts } = await topic('Source', 2);
      assert.equal(await scope.moderatorActions.mergePosts(source.id, target.id), 3);
      const page = await scope.posts.listByTopic(target.id, { limit: 10 });
      assert.deepEqual(
        page.items.map((p) => [p.position, p.body]),
        [
          [1, 'Target'],
          [2, 'reply 0'],
          [3, 'Source'],
          [4, 'reply 0'],
          [5, 'reply 1'],
        ],
      );
      assert.equal(page.items[2]!.id, posts[0]!.id);
      assert.equal((await scope.topics.getById(target.id))?.postCount, 5);
      assert.equal((await scope.topics.getById(source.id))?.postCount, 0);
      assert.deepEqual((await scope.posts.listByTopic(source.id, { limit: 10 })).items, []);
    });

    test('the duplicates of a topic are listed; deleted ones are not', async () => {
      const { scope, topic } = await community();
      const { topic: original } = await topic('Original');
      const { topic: one } = await topic('Once');
      const { topic: two } = await topic('Twice');
      const flagOf = async () =>
        (await scope.topics.getById(original.id))?.moderation.hasDuplicates;
      assert.equal(await flagOf(), false, 'a topic read alone says it has no duplicates');
      await scope.moderatorActions.setTopic(one.id, { duplicateOf: original.id });
      await scope.moderatorActions.setTopic(two.id, { duplicateOf: original.id });
      assert.equal(await flagOf(), true);
      assert.equal((await scope.topics.getById(one.id))?.moderation.hasDuplicates, false);
      assert.deepEqual(
        // Created within the same millisecond, their order is not the point here.
        (await scope.moderatorActions.duplicatesOf(original.id)).map((d) => d.title).sort(),
        ['Once', 'Twice'],
      );
      await scope.moderatorActions.setTopic(two.id, {
        deleted: { at: new Date().toISOString(), by: 'Mo', reason: 'x' },
      });
      assert.deepEqual(
        (await scope.moderatorActions.duplicatesOf(original.id)).map((d) => d.title),
        ['Once'],
      );
      await scope.moderatorActions.setTopic(one.id, {
        deleted: { at: new Date().toISOString(), by: 'Mo', reason: 'x' },
      });
      assert.equal(await flagOf(), false, 'deleted duplicates do not count');
    });

    test('the log lists every action newest first, paged, per community', async () => {
      const { scope, topic } = await community();
      const other = await community();
      const { topic: t } = await topic('Logged');
      for (let i = 0; i < 5; i++)
        await scope.moderatorActions.log({
          action: i % 2 ? 'close' : 'reopen',
          actor: mod,
          topicId: t.id,
          targetTitle: t.title,
          reason: `reason ${i}`,
          createdAt: new Date(Date.UTC(2026, 11, 1, 12, 0, i)).toISOString(),
        });
      await other.scope.moderatorActions.log({ action: 'pin', actor: mod });
      const first = await scope.moderatorActions.listLog({ limit: 3 });
      assert.deepEqual(
        first.items.map((e) => e.reason),
        ['reason 4', 'reason 3', 'reason 2'],
      );
      assert.equal(first.items[0]!.actor.name, 'Mo Derator');
      assert.equal(first.items[0]!.topicId, t.id);
      assert.equal(first.items[0]!.targetTitle, 'Logged');
      const second = await scope.moderatorActions.listLog({ limit: 3, after: first.next! });
      assert.deepEqual(
        second.items.map((e) => e.reason),
        ['reason 1', 'reason 0'],
      );
      assert.equal(second.next, null);
    });
  });
}
