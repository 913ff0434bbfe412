// What every Store adapter does for the network's directory at scale: public communities matched by
// the words of their slug, name and description through the index of migration 0111 (stemmed;
// most words matched first, then slug and name above the description), never a private community,
// and a change of visibility, name or description seen by the very next match; ordinals (migration
// 0112) given in creation order, per community for topics, distinct even when topics are created
// at once, and the sitemap files read by ordinal range (public and listed rows only).
// sqlite.test.ts and postgres.test.ts run it against a real engine each.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { systemActor, anonymous } from '../../src/domain/actor.ts';
import { CommunityService } from '../../src/domain/communities.ts';
import { SitemapService } from '../../src/domain/sitemaps.ts';
import type { AuthorRef } from '../../src/store/types.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { StoreFactory } from './contract.ts';

/** A word no other test's community holds: letters only, so every engine reads it as one word. */
const word = () =>
  `zq${[...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join('')}`;

export function defineDirectoryContract(engine: string, factory: StoreFactory): void {
  describe(`directory store contract: at scale (${engine})`, () => {
    let store: Store;
    before(async () => {
      store = await factory.open();
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    const community = (
      o: { name?: string; description?: string; visibility?: 'public' | 'private' } = {},
    ) =>
      store.communities.create({
        slug: `d-${randomBytes(4).toString('hex')}`,
        name: o.name ?? 'Directory',
        description: o.description,
        visibility: o.visibility ?? 'public',
      });
    const slugsOf = (found: { community: { slug: string } }[]) =>
      found.map((m) => m.community.slug);

    test('public communities match on their slug, name and description words, best first', async () => {
      const [topic, other] = [word(), word()];
      const both = await community({ name: `${topic} hub`, description: `All about ${other}.` });
      const inName = await community({ name: `The ${topic} place` });
      const inDescription = await community({ description: `We discuss ${topic} here.` });
      const bySlug = await store.communities.create({
        slug: `${topic}-forum`,
        name: 'Forum',
        visibility: 'public',
      });
      await community({ name: 'Unrelated', description: 'Nothing to see.' });
      const found = await store.communities.matchPublic([topic, other], 10);
      assert.equal(found[0]!.community.slug, both.slug, 'both words first');
      assert.equal(found[0]!.matched, 2);
      assert.deepEqual(
        new Set(slugsOf(found.slice(1))),
        new Set([inName.slug, inDescription.slug, bySlug.slug]),
      );
      assert.ok(found.slice(1).every((m) => m.matched === 1));
      assert.equal(
        slugsOf(found).at(-1),
        inDescription.slug,
        'the description weighs less than the slug and the name',
      );
      assert.deepEqual(slugsOf(await store.communities.matchPublic([topic, other], 2)), [
        both.slug,
        slugsOf(found)[1],
      ]);
      assert.deepEqual(await store.communities.matchPublic([], 10), []);
      assert.deepEqual(await store.communities.matchPublic([word()], 10), []);
    });

    test('words are stemmed: a plural finds the singular', async () => {
      // Ends as an English word does (a vowel before its last consonant): a stemmer only takes the
      // plural's "s" off such a word, and random letters without a vowel would not be one.
      const stem = `${word()}ket`;
      const c = await community({ description: `Signing ${stem} deliveries with a secret.` });
      const found = await store.communities.matchPublic([`${stem}s`, 'delivery'], 5);
      assert.deepEqual(slugsOf(found), [c.slug]);
      assert.equal(found[0]!.matched, 2);
    });

    test('a private community is never matched; visibility, name and description changes count at once', async () => {
      const [topic, renamed] = [word(), word()];
      const hidden = await community({ name: `${topic} inside`, visibility: 'private' });
      assert.deepEqual(await store.communities.matchPublic([topic], 10), []);
      await store.communities.update(hidden.id, { visibility: 'public' });
      assert.deepEqual(slugsOf(await store.communities.matchPublic([topic], 10)), [hidden.slug]);
      await store.communities.update(hidden.id, { name: `${renamed} inside` });
      assert.deepEqual(
        await store.communities.matchPublic([topic], 10),
        [],
        'the old name is gone',
      );
      assert.deepEqual(slugsOf(await store.communities.matchPublic([renamed], 10)), [hidden.slug]);
      await store.communities.update(hidden.id, { description: `Once ${topic}.` });
      assert.deepEqual(slugsOf(await store.communities.matchPublic([topic], 10)), [hidden.slug]);
      await store.communities.update(hidden.id, { visibility: 'private' });
      assert.deepEqual(await store.communities.matchPublic([topic, renamed], 10), []);
      await store.transaction(async (tx) => {
        await tx.communities.update(hidden.id, { visibility: 'public' });
        assert.equal(
          (await tx.communities.matchPublic([renamed], 10)).length,
          1,
          'in its transaction',
        );
      });
    });

    test('CommunityService.matchPublic scores the share of the subject words matched', async () => {
      const [a, b] = [word(), word()];
      const both = await community({ name: `${a} and ${b}` });
      const one = await community({ description: `Only ${a}.` });
      const service = new CommunityService(store);
      const found = await service.matchPublic(`How do I ${a} the ${b}?`, 5);
      assert.deepEqual(
        found.map((m) => [m.community.slug, m.score, m.matched]),
        [
          [both.slug, 1, 2],
          [one.slug, 0.5, 1],
        ],
        'stop words ("how", "do", "the") are not counted',
      );
      assert.deepEqual(await service.matchPublic('the of and', 5), []);
      await assert.rejects(service.matchPublic(a, 0), { code: 'invalid_argument' });
    });

    const person: AuthorRef = { kind: 'person', id: null, name: 'Ada' };
    async function withTopics(n: number, visibility: 'public' | 'private' = 'public') {
      const c = await community({ visibility });
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const topics = [];
      for (let i = 0; i < n; i++)
        topics.push(
          await scope.topics.create({
            categoryId: category.id,
            slug: `t-${i}-${randomBytes(3).toString('hex')}`,
            title: `Topic number ${i}`,
            author: person,
          }),
        );
      return { community: c, scope, category, topics };
    }

    test('ordinals: communities in creation order, topics per community; files read by range', async () => {
      const before = await store.communities.lastOrdinal();
      const a = await community();
      await community({ visibility: 'private' });
      const b = await community();
      assert.equal(await store.communities.lastOrdinal(), before + 3);
      assert.deepEqual(
        (await store.communities.publicByOrdinal(before, before + 3)).map((c) => c.slug),
        [a.slug, b.slug],
        'in ordinal order, without the private one',
      );
      assert.deepEqual(
        (await store.communities.publicByOrdinal(before + 1, before + 2)).map((c) => c.slug),
        [],
        'only the range asked for',
      );

      const one = await withTopics(4);
      const two = await withTopics(2);
      assert.equal(await one.scope.topics.lastOrdinal(), 4);
      assert.equal(await two.scope.topics.lastOrdinal(), 2, 'each community counts its own');
      const listed = await one.scope.topics.listedByOrdinal(0, 4);
      assert.deepEqual(
        listed.map((t) => t.slug),
        one.topics.map((t) => t.slug),
      );
      assert.deepEqual(
        (await one.scope.topics.listedByOrdinal(1, 3)).map((t) => t.slug),
        one.topics.slice(1, 3).map((t) => t.slug),
      );
      await one.scope.moderatorActions.setTopic(one.topics[0]!.id, {
        deleted: { at: new Date().toISOString(), by: 'Mo', reason: 'Spam.' },
      });
      await one.scope.moderatorActions.setTopic(one.topics[3]!.id, {
        mergedInto: one.topics[2]!.id,
      });
      assert.deepEqual(
        (await one.scope.topics.listedByOrdinal(0, 4)).map((t) => t.slug),
        [one.topics[1]!.slug, one.topics[2]!.slug],
        'neither deleted nor merged away',
      );
      assert.match(listed[0]!.updatedAt, /^\d{4}-\d{2}-\d{2}T/);
    });

    test('topics created at the same time in one community get distinct ordinals', async () => {
      const { scope, category } = await withTopics(0);
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          scope.topics.create({
            categoryId: category.id,
            slug: `at-once-${i}`,
            title: `Created at once ${i}`,
            author: person,
          }),
        ),
      );
      assert.equal(await scope.topics.lastOrdinal(), 12);
      assert.equal((await scope.topics.listedByOrdinal(0, 12)).length, 12);
    });

    test('SitemapService: files of at most N, counted from the last ordinal; public content only', async () => {
      const sitemaps = new SitemapService(
        store,
        {
          publicScheme: 'https',
          baseDomain: 'example.org',
          port: 443,
          publicOrigin: 'https://example.org',
        },
        2,
      );
      const { community: c, topics } = await withTopics(5);
      assert.equal(
        await sitemaps.networkFiles(),
        Math.ceil((await store.communities.lastOrdinal()) / 2),
      );
      const last = await sitemaps.networkFile(await sitemaps.networkFiles());
      assert.ok(last.entries.length <= 2);
      assert.ok(
        last.entries.some((e) => e.url === `https://${c.slug}.example.org`),
        'the newest community is in the last file',
      );
      assert.equal(await sitemaps.communityFiles(anonymous, c), 3);
      const files = [];
      for (let f = 1; f <= 3; f++)
        files.push((await sitemaps.communityFile(anonymous, c, f)).entries);
      assert.deepEqual(
        files.map((entries) => entries.length),
        [2, 2, 1],
      );
      assert.deepEqual(
        files.flat().map((e) => e.url),
        topics.map((t) => `https://${c.slug}.example.org/t/${t.slug}`),
      );
      await assert.rejects(sitemaps.communityFile(anonymous, c, 4), { code: 'not_found' });
      await assert.rejects(sitemaps.communityFile(anonymous, c, 0), { code: 'not_found' });
      const secret = await withTopics(1, 'private');
      await assert.rejects(sitemaps.communityFiles(anonymous, secret.community), {
        code: 'not_found',
      });
      await assert.rejects(sitemaps.communityFiles(systemActor(), secret.community), {
        code: 'not_found',
      });
    });
  });
}
