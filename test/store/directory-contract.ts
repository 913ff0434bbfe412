// What every Store adapter does for the network's directory at scale: public communities matched by
// the words of their slug, name and description through the index of migration 0111 (stemmed;
// most words matched first, then slug and name above the description), never a private community,
// and a change of visibility, name or description seen by the very next match.
// sqlite.test.ts and postgres.test.ts run it against a real engine each.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { CommunityService } from '../../src/domain/communities.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { StoreFactory } from './contract.ts';

/** A word no other test's community holds: letters only, so every engine reads it as one word. */
const word = () =>
  `zq${[...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join('')}`;

export function defineDirectoryContract(engine: string, factory: StoreFactory): void {
  describe(`store contract: the directory at scale (${engine})`, () => {
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
      const stem = word();
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
  });
}
