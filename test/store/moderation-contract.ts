// What every Store adapter does with a community's self-moderation (migration 0091): one flag per
// flagger per post however many race, open flags counted exactly, hidden posts per community,
// sanctions replaced and lifted, settings kept as given. sqlite.test.ts and postgres.test.ts run it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Store } from '../../src/store/repositories.ts';
import type { StoreFactory } from './contract.ts';

export function defineModerationContract(engine: string, factory: StoreFactory): void {
  describe(`moderation store contract (${engine})`, () => {
    let store: Store;
    before(async () => {
      store = await factory.open();
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    async function post() {
      const c = await store.communities.create({
        slug: `m-${randomBytes(4).toString('hex')}`,
        name: 'Moderation',
        visibility: 'public',
      });
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const author = { kind: 'person' as const, id: randomUUID(), name: 'Ada' };
      const t = await scope.topics.create({
        categoryId: category.id,
        slug: 'flagged',
        title: 'Flagged',
        author,
      });
      const p = await scope.posts.create({ topicId: t.id, author, body: 'buy pills' });
      return { community: c, scope, topic: t, post: p, author };
    }

    const flagBy = (p: Awaited<ReturnType<typeof post>>, id: string, trusted = true) =>
      p.scope.moderation.addFlag({
        postId: p.post.id,
        topicId: p.topic.id,
        flagger: { kind: 'person', id, name: `Flagger ${id.slice(0, 4)}` },
        reason: 'spam',
        note: null,
        trusted,
      });

    test('one flag per flagger per post: a second one adds nothing and returns the first', async () => {
      const p = await post();
      const who = randomUUID();
      const first = await flagBy(p, who);
      const again = await flagBy(p, who);
      assert.equal(first.added, true);
      assert.equal(again.added, false);
      assert.equal(again.flag.id, first.flag.id);
      assert.equal(await p.scope.moderation.openFlagCount(p.post.id, false), 1);
    });

    test('20 concurrent flaggers (and each twice) count exactly 20; trusted ones counted apart', async () => {
      const p = await post();
      const ids = Array.from({ length: 20 }, () => randomUUID());
      const results = await Promise.all(
        [...ids, ...ids].map((id, i) =>
          store.transaction((tx) =>
            tx.community(p.community.id).moderation.addFlag({
              postId: p.post.id,
              topicId: p.topic.id,
              flagger: { kind: 'agent', id, name: 'bot' },
              reason: 'spam',
              note: null,
              trusted: i % 2 === 0,
            }),
          ),
        ),
      );
      assert.equal(results.filter((r) => r.added).length, 20);
      assert.equal(await p.scope.moderation.openFlagCount(p.post.id, false), 20);
      const trusted = (await p.scope.moderation.flagsOf(p.post.id)).filter((f) => f.trusted).length;
      assert.equal(await p.scope.moderation.openFlagCount(p.post.id, true), trusted);
    });

    test('settling closes the open flags once; upheld ones count against the author', async () => {
      const p = await post();
      await flagBy(p, randomUUID());
      await flagBy(p, randomUUID());
      assert.equal(await p.scope.moderation.settleFlags(p.post.id, 'upheld', 'Mod'), 2);
      assert.equal(await p.scope.moderation.settleFlags(p.post.id, 'dismissed', 'Mod'), 0);
      assert.equal(await p.scope.moderation.openFlagCount(p.post.id, false), 0);
      assert.deepEqual(await p.scope.moderation.openFlags(10), []);
      const since = new Date(Date.now() - 60_000).toISOString();
      assert.equal(await p.scope.moderation.upheldAgainst(p.author, since), 2);
      const flags = await p.scope.moderation.flagsOf(p.post.id, 'upheld');
      assert.equal(flags[0]!.decidedByName, 'Mod');
    });

    test('trust inputs: accepted answers and posts by an author, since a time', async () => {
      const p = await post();
      assert.equal(await p.scope.moderation.postsBy(p.author), 1);
      assert.deepEqual(
        await p.scope.moderation.postsSince(p.author, new Date(Date.now() + 60_000).toISOString()),
        { count: 0, oldestAt: null },
      );
      const lastHour = await p.scope.moderation.postsSince(
        p.author,
        new Date(Date.now() - 3_600_000).toISOString(),
      );
      assert.equal(lastHour.count, 1);
      assert.equal(lastHour.oldestAt, p.post.createdAt, 'the oldest post of the window');
      assert.equal(await p.scope.moderation.acceptedAnswersOf(p.author), 0);
      const reply = await p.scope.posts.create({
        topicId: p.topic.id,
        author: p.author,
        body: 'fixed',
      });
      await p.scope.topics.update(p.topic.id, { solutionPostId: reply.id });
      assert.equal(await p.scope.moderation.acceptedAnswersOf(p.author), 1);
      assert.equal(await p.scope.moderation.postsBy(p.author), 2);
    });

    test('a hidden post is hidden in its community only, once, until shown again', async () => {
      const p = await post();
      const other = await post();
      const hide = {
        postId: p.post.id,
        topicId: p.topic.id,
        position: 1,
        note: null,
        byName: 'Mod',
      };
      const flagOf = async () => (await p.scope.topics.getById(p.topic.id))?.moderation.hasHidden;
      assert.equal(await flagOf(), false, 'a topic read alone says nothing of it is hidden');
      assert.equal(await p.scope.moderation.hide({ ...hide, cause: 'flags' }), true);
      assert.equal(await p.scope.moderation.hide({ ...hide, cause: 'moderator' }), false);
      assert.equal(await flagOf(), true);
      assert.equal((await p.scope.topics.getBySlug(p.topic.slug))?.moderation.hasHidden, true);
      assert.equal((await other.scope.topics.getById(other.topic.id))?.moderation.hasHidden, false);
      const [hidden] = await p.scope.moderation.hiddenAmong([p.post.id, 'not-an-id']);
      assert.equal(hidden?.cause, 'flags');
      assert.deepEqual(
        (await p.scope.moderation.hiddenInTopic(p.topic.id)).map((h) => h.position),
        [1],
      );
      assert.deepEqual(await other.scope.moderation.hiddenAmong([p.post.id]), []);
      assert.equal(await other.scope.moderation.unhide(p.post.id), false);
      assert.equal(await p.scope.moderation.unhide(p.post.id), true);
      assert.deepEqual(await p.scope.moderation.hiddenAmong([p.post.id]), []);
      assert.equal(await flagOf(), false);
    });

    test('a sanction is replaced, listed until it ends, and lifted', async () => {
      const p = await post();
      const agent = { kind: 'agent' as const, id: randomUUID(), name: 'bot' };
      const now = Date.now();
      const at = (ms: number) => new Date(now + ms).toISOString();
      const base = { subject: agent, byName: 'Mod', createdAt: at(0) };
      await p.scope.moderation.setSanction({
        ...base,
        mode: 'silenced',
        reason: 'a',
        endsAt: at(1000),
      });
      await p.scope.moderation.setSanction({
        ...base,
        mode: 'suspended',
        reason: 'b',
        endsAt: at(9000),
      });
      const s = await p.scope.moderation.getSanction('agent', agent.id);
      assert.deepEqual([s?.mode, s?.reason, s?.endsAt], ['suspended', 'b', at(9000)]);
      assert.equal((await p.scope.moderation.listSanctions(at(0))).length, 1);
      assert.equal((await p.scope.moderation.listSanctions(at(10_000))).length, 0);
      const other = await post();
      assert.equal(await other.scope.moderation.getSanction('agent', agent.id), undefined);
      assert.equal(await p.scope.moderation.clearSanction('agent', agent.id), true);
      assert.equal(await p.scope.moderation.getSanction('agent', agent.id), undefined);
    });

    test('why a write was queued is kept per approval, in its community', async () => {
      const p = await post();
      const approval = await p.scope.access.approvals.create({
        kind: 'post.create',
        payload: { topic: p.topic.id, body: 'hello there' },
        submitter: p.author,
        keyPrefix: null,
      });
      await p.scope.moderation.noteQueued(approval.id, 'first_post');
      await p.scope.moderation.noteQueued(approval.id, 'other');
      assert.equal(
        (await p.scope.moderation.queuedReasons([approval.id])).get(approval.id),
        'first_post',
      );
      const other = await post();
      assert.equal((await other.scope.moderation.queuedReasons([approval.id])).size, 0);
    });

    test('settings are kept as given, per community', async () => {
      const p = await post();
      const other = await post();
      assert.equal(await p.scope.moderation.getSettings(), undefined);
      await p.scope.moderation.setSettings({ flag_threshold: 2 });
      await p.scope.moderation.setSettings({ flag_threshold: 3 });
      assert.deepEqual(await p.scope.moderation.getSettings(), { flag_threshold: 3 });
      assert.equal(await other.scope.moderation.getSettings(), undefined);
    });
  });
}
