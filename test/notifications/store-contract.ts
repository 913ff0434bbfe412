// What every Store adapter does with notifications (migration 0080): one row per recipient and
// cause, newest first with keyset pages, read marks and unread counts per recipient, each
// community's rows only; watch levels and e-mail preferences; the mail side's queue settled once;
// people's unique @handles. ./store.test.ts runs it on SQLite and on PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/store/repositories.ts';
import { UniqueViolation } from '../../src/store/errors.ts';
import { handleBase } from '../../src/store/handles.ts';

export type StoreFactory = { open(): Promise<Store>; cleanup?(): Promise<void> };

export function defineNotificationStoreContract(engine: string, factory: StoreFactory): void {
  describe(`notifications store contract (${engine})`, () => {
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
        slug: `n-${randomBytes(4).toString('hex')}`,
        name: 'Notes',
        visibility: 'public',
      });
    const someone = (name: string) =>
      store.people.create({ displayName: name, email: `${randomBytes(4).toString('hex')}@x.org` });
    const note = (recipientId: string, source: string, createdAt: string) => ({
      recipientId,
      kind: 'replied',
      sourceKey: source,
      actor: { kind: 'person' as const, id: null, name: 'Ada' },
      title: 'A topic',
      createdAt,
    });

    test('one per recipient and cause; newest first in keyset pages; read marks and counts', async () => {
      const c = await community();
      const other = await community();
      const [ada, bob] = [await someone('Ada'), await someone('Bob')];
      const notes = store.community(c.id).notifications;
      const added = await notes.add([
        note(ada.id, 'post:1', '2026-01-01T00:00:01.000Z'),
        note(ada.id, 'post:2', '2026-01-01T00:00:02.000Z'),
        note(ada.id, 'post:3', '2026-01-01T00:00:03.000Z'),
        note(bob.id, 'post:1', '2026-01-01T00:00:01.000Z'),
      ]);
      assert.equal(added, 4);
      assert.equal(await notes.add([note(ada.id, 'post:1', '2026-01-01T00:00:09.000Z')]), 0);
      const first = await notes.list(ada.id, { limit: 2 });
      assert.deepEqual(
        first.items.map((n) => n.sourceKey),
        ['post:3', 'post:2'],
      );
      const second = await notes.list(ada.id, { limit: 2, after: first.next! });
      assert.deepEqual(
        second.items.map((n) => n.sourceKey),
        ['post:1'],
      );
      assert.equal(second.next, null);
      assert.equal(await notes.unreadCount(ada.id), 3);
      const at = '2026-01-02T00:00:00.000Z';
      assert.equal(await notes.markRead(ada.id, [first.items[0]!.id, second.items[0]!.id], at), 2);
      assert.equal(await notes.markRead(bob.id, [first.items[1]!.id], at), 0, 'not Bob’s');
      assert.equal(await notes.unreadCount(ada.id), 1);
      assert.deepEqual(
        (await notes.list(ada.id, { limit: 10, unreadOnly: true })).items.map((n) => n.sourceKey),
        ['post:2'],
      );
      assert.equal(await notes.markRead(ada.id, null, at), 1);
      assert.equal(await notes.unreadCount(ada.id), 0);
      assert.equal(await notes.unreadCount(bob.id), 1);
      assert.equal(
        (await store.community(other.id).notifications.list(ada.id, { limit: 10 })).items.length,
        0,
        "another community's scope sees none of them",
      );
      assert.equal(await store.community(other.id).notifications.markRead(bob.id, null, at), 0);
    });

    test('the glance: newest first with the unread count, places and excerpts, read by topic', async () => {
      const c = await community();
      const scope = store.community(c.id);
      const [ada, bob] = [await someone('Ada'), await someone('Bob')];
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const author = { kind: 'agent' as const, id: null, name: 'helper-bot' };
      const topic = await scope.topics.create({
        categoryId: category.id,
        slug: 'glanced',
        title: 'Glanced',
        author,
      });
      const asked = await scope.posts.create({ topicId: topic.id, author, body: 'The question.' });
      const answer = await scope.posts.create({
        topicId: topic.id,
        author,
        body: 'The **answer** is long. '.repeat(40),
      });
      assert.deepEqual(await scope.notifications.glance(ada.id, 5), { items: [], unread: 0 });
      await scope.notifications.add([
        {
          ...note(ada.id, 'post:a', '2026-01-01T00:00:01.000Z'),
          topicId: topic.id,
          postId: asked.id,
        },
        {
          ...note(ada.id, 'post:b', '2026-01-01T00:00:02.000Z'),
          topicId: topic.id,
          postId: answer.id,
        },
        { ...note(ada.id, 'approval:x', '2026-01-01T00:00:03.000Z') },
        {
          ...note(bob.id, 'post:b', '2026-01-01T00:00:02.000Z'),
          topicId: topic.id,
          postId: answer.id,
        },
      ]);
      const seen = await scope.notifications.glance(ada.id, 2);
      assert.equal(seen.unread, 3);
      assert.deepEqual(
        seen.items.map((n) => [n.sourceKey, n.topicSlug]),
        [
          ['approval:x', null],
          ['post:b', 'glanced'],
        ],
      );
      assert.match(seen.items[1]!.excerpt!, /^The \*\*answer\*\* is long\./);
      assert.ok(seen.items[1]!.excerpt!.length <= 280, 'an excerpt, not the whole post');
      const places = await scope.notifications.places(
        ada.id,
        seen.items.map((n) => n.id),
      );
      assert.equal(places.get(seen.items[1]!.id)?.topicSlug, 'glanced');
      assert.equal((await scope.notifications.places(bob.id, [seen.items[1]!.id])).size, 0);
      // A hidden post gives no excerpt.
      await scope.moderation.hide({
        postId: answer.id,
        topicId: topic.id,
        position: answer.position,
        cause: 'moderator',
        note: null,
        byName: 'Mo',
      });
      assert.equal((await scope.notifications.glance(ada.id, 2)).items[1]!.excerpt, null);
      // Opening the topic reads Ada's notifications about it, not Bob's nor the others.
      assert.equal(
        await scope.notifications.readOnTopic(ada.id, topic.id, '2026-01-02T00:00:00.000Z'),
        2,
      );
      assert.equal(await scope.notifications.unreadCount(ada.id), 1);
      assert.equal(await scope.notifications.unreadCount(bob.id), 1);
      assert.equal(
        await store
          .community((await community()).id)
          .notifications.readOnTopic(bob.id, topic.id, '2026-01-02T00:00:00.000Z'),
        0,
        "another community's scope reads none",
      );
    });

    test('levels per topic and category; set-if-unset keeps a choice; preferences; members', async () => {
      const c = await community();
      const ada = await someone('Ada');
      const notes = store.community(c.id).notifications;
      const topicId = (await store.people.create({ displayName: 'x' })).id; // any uuid
      await notes.setLevel(ada.id, 'topic', topicId, 'mute');
      await notes.setLevelIfUnset(ada.id, 'topic', topicId, 'watch');
      assert.equal(await notes.level(ada.id, 'topic', topicId), 'mute');
      await notes.setLevel(ada.id, 'topic', topicId, 'track');
      assert.equal(await notes.level(ada.id, 'topic', topicId), 'track');
      await notes.setLevel(ada.id, 'category', topicId, 'watch');
      assert.deepEqual(
        (await notes.levelsOn([{ kind: 'category', id: topicId }])).map((l) => l.level),
        ['watch'],
      );
      assert.equal((await notes.levelsOf(ada.id, 'topic')).length, 1);
      await notes.setLevel(ada.id, 'topic', topicId, null);
      assert.equal(await notes.level(ada.id, 'topic', topicId), undefined);
      assert.equal(await notes.emailPreference(ada.id), undefined);
      await notes.setEmailPreference(ada.id, 'weekly');
      await notes.setEmailPreference(ada.id, 'daily');
      assert.equal(await notes.emailPreference(ada.id), 'daily');
      assert.deepEqual([...(await notes.members([ada.id]))], []);
    });

    test("the mail side's queue: pending over every community, oldest first, settled once", async () => {
      const [c1, c2] = [await community(), await community()];
      const ada = await someone('Ada');
      await store
        .community(c2.id)
        .notifications.add([note(ada.id, 'p:b', '2020-01-01T00:00:02.000Z')]);
      await store
        .community(c1.id)
        .notifications.add([note(ada.id, 'p:a', '2020-01-01T00:00:01.000Z')]);
      const pending = (await store.notificationMail.pending(1000)).filter(
        (n) => n.recipientId === ada.id,
      );
      assert.deepEqual(
        pending.map((n) => [n.communityId, n.sourceKey, n.emailState]),
        [
          [c1.id, 'p:a', 'pending'],
          [c2.id, 'p:b', 'pending'],
        ],
      );
      const at = new Date().toISOString();
      assert.equal(await store.notificationMail.settle(pending[0]!.id, 'sent', at), true);
      assert.equal(await store.notificationMail.settle(pending[0]!.id, 'sent', at), false);
      assert.equal(await store.notificationMail.settle(pending[1]!.id, 'skipped', at), true);
      const left = (await store.notificationMail.pending(1000)).filter(
        (n) => n.recipientId === ada.id,
      );
      assert.equal(left.length, 0);
    });

    test('handles: made unique from the display name, found in any case, refused when taken', async () => {
      const name = `Dana ${randomBytes(3).toString('hex')}`;
      const a = await store.people.create({ displayName: name });
      const b = await store.people.create({ displayName: name });
      assert.equal(a.handle, handleBase(name));
      assert.equal(b.handle, `${handleBase(name)}2`);
      assert.equal((await store.people.getByHandle(a.handle!.toUpperCase()))?.id, a.id);
      await assert.rejects(store.people.setHandle(b.id, a.handle!), UniqueViolation);
      await store.people.setHandle(b.id, `${a.handle}-b`);
      assert.equal((await store.people.getById(b.id))?.handle, `${a.handle}-b`);
      assert.equal(handleBase('Héllo (demo)!'), 'hello-demo');
      assert.equal(handleBase('李'), 'user');
    });
  });
}
