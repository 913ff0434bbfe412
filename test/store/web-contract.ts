// What every Store adapter does for the web's pages: drafts (migration 0095) are one per person and
// place, replaced on save, deleted on discard, and each community's own; topic listings page by
// number (an offset) in the same order as by cursor; the members page's people are role holders and
// those who posted without a role, newest joined first, in pages; upload records (migration 0098) are
// each community's own, read back as written, and summed for the community's quota, and uploads
// checking for room at the same time take turns.
// sqlite.test.ts and postgres.test.ts run it
// against a real engine each.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Store } from '../../src/store/repositories.ts';
import type { StoreFactory } from './contract.ts';

export function defineWebContract(engine: string, factory: StoreFactory): void {
  describe(`drafts, numbered pages and uploads store contract (${engine})`, () => {
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
        slug: `w-${randomBytes(4).toString('hex')}`,
        name: 'Writing',
        visibility: 'public',
      });

    test('a draft is kept per person and place, replaced on save, gone after discard', async () => {
      const c = await community();
      const scope = store.community(c.id);
      const ada = await store.people.create({ displayName: 'Ada' });
      const bob = await store.people.create({ displayName: 'Bob' });
      const place = `topic:${randomBytes(4).toString('hex')}` as const;
      assert.equal(await scope.drafts.get(ada.id, place), undefined);
      await scope.drafts.save(ada.id, place, { title: '', body: 'first words' });
      await scope.drafts.save(ada.id, 'new', { title: 'A title', body: 'a new topic' });
      const saved = await scope.drafts.save(ada.id, place, { title: '', body: 'second words' });
      const got = await scope.drafts.get(ada.id, place);
      assert.equal(got?.body, 'second words');
      assert.equal(got?.updatedAt, saved.updatedAt);
      assert.match(got!.updatedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.deepEqual(
        { title: (await scope.drafts.get(ada.id, 'new'))?.title },
        { title: 'A title' },
      );
      assert.equal(await scope.drafts.get(bob.id, place), undefined, "not another person's");
      const other = store.community((await community()).id);
      assert.equal(await other.drafts.get(ada.id, place), undefined, 'not in another community');
      assert.equal(await other.drafts.discard(ada.id, place), false);
      assert.equal(await scope.drafts.discard(ada.id, place), true);
      assert.equal(await scope.drafts.get(ada.id, place), undefined);
      assert.equal(await scope.drafts.discard(ada.id, place), false);
      assert.equal((await scope.drafts.get(ada.id, 'new'))?.body, 'a new topic', 'the other stays');
      assert.equal(await scope.drafts.get('not-a-uuid', place), undefined);
    });

    test('a numbered page of topics is the same as the page its cursor leads to', async () => {
      const c = await community();
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const author = { kind: 'person' as const, id: null, name: 'Ada' };
      for (let i = 0; i < 7; i++) {
        const t = await scope.topics.create({
          categoryId: category.id,
          slug: `t-${i}`,
          title: `Topic ${i}`,
          author,
          createdAt: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
        });
        await scope.posts.create({ topicId: t.id, author, body: `body ${i}` });
      }
      const q = { sort: 'created' as const, limit: 3 };
      const one = await scope.topics.list(q);
      const two = await scope.topics.list({ ...q, after: one.next! });
      const byNumber = await scope.topics.list({ ...q, offset: 3 });
      assert.deepEqual(
        byNumber.items.map((t) => t.slug),
        two.items.map((t) => t.slug),
      );
      assert.deepEqual(
        byNumber.items.map((t) => t.slug),
        ['t-3', 't-2', 't-1'],
      );
      const last = await scope.topics.list({ ...q, offset: 6 });
      assert.deepEqual(
        last.items.map((t) => t.slug),
        ['t-0'],
      );
      assert.equal(last.next, null);
    });

    test("a community's people: role holders and authors without a role, newest first, in pages", async () => {
      const c = await community();
      const scope = store.community(c.id);
      const elsewhere = store.community((await community()).id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const day = (d: number) => new Date(Date.UTC(2024, 0, d)).toISOString();
      const owner = await store.people.create({
        displayName: 'Owner',
        email: `o-${c.slug}@x.test`,
      });
      const poster = await store.people.create({ displayName: 'Poster' });
      const both = await store.people.create({ displayName: 'Both' });
      const stranger = await store.people.create({ displayName: 'Stranger' });
      await scope.access.members.set(owner.id, 'owner');
      await scope.access.members.set(both.id, 'moderator');
      const post = async (p: typeof poster, d: number) => {
        const author = { kind: 'person' as const, id: p.id, name: p.displayName };
        const t = await scope.topics.create({
          categoryId: category.id,
          slug: `t-${p.id.slice(0, 8)}-${d}`,
          title: `Topic ${d}`,
          author,
          createdAt: day(d),
        });
        await scope.posts.create({ topicId: t.id, author, body: 'words', createdAt: day(d) });
      };
      await post(poster, 3);
      await post(poster, 2); // joined with the first post (day 2), listed once
      await post(both, 1); // a role holder's date is the membership's
      await elsewhere.access.members.set(stranger.id, 'member'); // another community's member
      const first = await scope.access.members.people({ limit: 2 });
      const second = await scope.access.members.people({ limit: 2, after: first.next! });
      assert.equal(second.next, null);
      const all = [...first.items, ...second.items];
      assert.deepEqual(all.map((p) => p.displayName).sort(), ['Both', 'Owner', 'Poster']);
      const byName = Object.fromEntries(all.map((p) => [p.displayName, p]));
      assert.equal(byName.Poster!.role, null);
      assert.equal(byName.Poster!.joinedAt, day(2));
      assert.equal(byName.Owner!.role, 'owner');
      assert.equal(byName.Owner!.email, `o-${c.slug}@x.test`);
      assert.equal(byName.Both!.role, 'moderator');
      assert.notEqual(byName.Both!.joinedAt, day(1));
      const keys = all.map((p) => `${p.joinedAt} ${p.personId}`);
      assert.deepEqual(keys, [...keys].sort().reverse(), 'newest joined first');
      // Found by a part of the name, the e-mail address or the handle, in any case; the other
      // community's member never.
      const found = async (query: string, limit = 10) =>
        (await scope.access.members.people({ limit, query })).items.map((p) => p.displayName);
      assert.deepEqual(await found('post'), ['Poster']);
      assert.deepEqual(await found(`O-${c.slug}@X`), ['Owner']);
      assert.deepEqual(await found('stranger'), []);
      assert.deepEqual(await found('%'), [], "LIKE's wildcards match only themselves");
      const handle = `zq${c.slug.slice(2)}`;
      await store.people.setHandle(both.id, handle);
      const withHandle = (await scope.access.members.people({ limit: 10 })).items;
      assert.equal(withHandle.find((p) => p.personId === both.id)!.handle, handle);
      assert.deepEqual(await found(handle.toUpperCase()), ['Both'], 'found by the handle');
      const paged = await scope.access.members.people({ limit: 1, query: 'o' });
      assert.equal(paged.items.length, 1);
      const rest = await scope.access.members.people({ limit: 5, query: 'o', after: paged.next! });
      assert.deepEqual(
        [...paged.items, ...rest.items].map((p) => p.displayName).sort(),
        ['Both', 'Owner', 'Poster'],
        'a search pages like the whole list',
      );
    });

    test("a member profile is each community's own, set field by field; a name is the account's", async () => {
      const c = await community();
      const scope = store.community(c.id);
      const other = store.community((await community()).id);
      const ada = await store.people.create({ displayName: 'Ada' });
      const bob = await store.people.create({ displayName: 'Bob' });
      assert.equal(await scope.memberProfiles.get(ada.id), undefined, 'none before a change');
      const first = await scope.memberProfiles.set(ada.id, { bio: 'Writes the exporter.' });
      assert.deepEqual(
        { bio: first.bio, avatar: first.avatarUploadId },
        { bio: 'Writes the exporter.', avatar: null },
      );
      const picture = randomUUID();
      const second = await scope.memberProfiles.set(ada.id, { avatarUploadId: picture });
      assert.equal(second.bio, 'Writes the exporter.', 'the bio is kept');
      assert.equal(second.avatarUploadId, picture);
      const cleared = await scope.memberProfiles.set(ada.id, { avatarUploadId: null });
      assert.equal(cleared.avatarUploadId, null);
      assert.equal(cleared.bio, 'Writes the exporter.');
      assert.equal(await other.memberProfiles.get(ada.id), undefined, "another community's");
      await scope.memberProfiles.set(bob.id, { bio: 'Bob here.' });
      const many = await scope.memberProfiles.many([ada.id, bob.id, 'not-an-id', ada.id]);
      assert.deepEqual(many.map((p) => p.bio).sort(), ['Bob here.', 'Writes the exporter.']);
      assert.deepEqual(await scope.memberProfiles.many([]), []);
      await store.people.setDisplayName(ada.id, 'Ada Lovelace');
      assert.equal((await store.people.getById(ada.id))!.displayName, 'Ada Lovelace');
    });

    test('an upload is recorded per community and counted in its quota sum', async () => {
      const c = await community();
      const scope = store.community(c.id);
      const other = store.community((await community()).id);
      assert.equal(await scope.uploads.totalBytes(), 0, 'nothing uploaded yet');
      const image = {
        id: randomUUID(),
        uploaderKind: 'person' as const,
        uploaderId: randomUUID(),
        filename: 'chart.png',
        contentType: 'image/png',
        byteSize: 3_000_000_000,
        sha256: 'a'.repeat(64),
        width: 640,
        height: 480,
      };
      const created = await scope.uploads.create(image);
      assert.match(created.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const pdf = {
        ...image,
        id: randomUUID(),
        filename: 'notes.pdf',
        contentType: 'application/pdf',
        byteSize: 1234,
        width: null,
        height: null,
      };
      await scope.uploads.create(pdf);
      await other.uploads.create({ ...pdf, id: randomUUID(), byteSize: 99 });
      assert.deepEqual(
        await scope.uploads.get(image.id),
        created,
        'read back as written (sizes past 2^31 too)',
      );
      assert.deepEqual((await scope.uploads.get(pdf.id))?.width, null);
      assert.equal(
        await scope.uploads.totalBytes(),
        3_000_001_234,
        'the sum of this community only',
      );
      assert.equal(await other.uploads.totalBytes(), 99);
      assert.equal(await other.uploads.get(image.id), undefined, 'not in another community');
      assert.equal(await scope.uploads.get('not-a-uuid'), undefined);
      const many = await scope.uploads.getMany([image.id, pdf.id, randomUUID(), 'nope']);
      assert.deepEqual(many.map((u) => u.filename).sort(), ['chart.png', 'notes.pdf']);
      assert.deepEqual(await other.uploads.getMany([image.id]), []);
    });

    test('uploads that check for room in their transactions take turns: the quota holds', async () => {
      const c = await community();
      const quota = 500;
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () =>
          store.transaction(async (tx) => {
            const uploads = tx.community(c.id).uploads;
            if ((await uploads.totalBytes()) + 100 > quota) throw new Error('no room');
            await new Promise((r) => setTimeout(r, 5)); // a slow file store, between check and record
            return uploads.create({
              id: randomUUID(),
              uploaderKind: 'person',
              uploaderId: randomUUID(),
              filename: 'a.txt',
              contentType: 'text/plain',
              byteSize: 100,
              sha256: 'b'.repeat(64),
              width: null,
              height: null,
            });
          }),
        ),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
      assert.equal(await store.community(c.id).uploads.totalBytes(), quota);
    });
  });
}
