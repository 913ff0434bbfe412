// Search follows moderators on both engines (migrations 0088, 0089): a soft-deleted reply, or every
// post of a soft-deleted topic, is no longer found and is found again once restored (semantic
// search too, which reads the same live posts); a deleted reply leaves its topic's profile; a topic
// closed as a duplicate adds its wording to the original's profile ("asked as"), queued at once.
// sqlite.test.ts and postgres.test.ts run it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AuthorRef } from '../../src/store/types.ts';
import { loadConfig } from '../../src/config/config.ts';
import { SearchService } from '../../src/search/service.ts';
import { createSearchIndex } from '../../src/search/engine.ts';
import type { OpenedDatabase } from '../../src/store/open.ts';
import { buildProfiles, countsOf } from '../../src/search/profiles.ts';
import type { SearchFactory } from './contract.ts';

const ada: AuthorRef = { kind: 'person', id: null, name: 'Ada' };
const config = loadConfig({ HAMLET_BASE_DOMAIN: 'hamlet.test', PORT: '8787' });
const deletion = () => ({ at: new Date().toISOString(), by: 'Mo', reason: 'spam' });

export function defineModerationSearchContract(engine: string, factory: SearchFactory): void {
  describe(`search moderation contract: search follows moderators (${engine})`, () => {
    let opened: OpenedDatabase;
    let search: SearchService;
    before(async () => {
      opened = await factory.open();
      search = new SearchService(
        opened.store,
        createSearchIndex(opened.db, opened.dialect),
        config,
      );
    });
    after(async () => {
      await opened?.store.close();
      await factory.cleanup?.();
    });

    async function community() {
      const store = opened.store;
      const c = await store.communities.create({
        slug: `s-${randomBytes(4).toString('hex')}`,
        name: 'S',
        visibility: 'public',
      });
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const topic = async (title: string, body: string, reply?: string) => {
        const t = await scope.topics.create({
          categoryId: category.id,
          slug: `${title.toLowerCase().replace(/\W+/g, '-')}-${randomBytes(2).toString('hex')}`,
          title,
          author: ada,
        });
        await scope.posts.create({ topicId: t.id, author: ada, body });
        const r = reply
          ? await scope.posts.create({ topicId: t.id, author: ada, body: reply })
          : undefined;
        return { topic: t, reply: r };
      };
      const found = async (q: string) =>
        (await search.search([c], q, {})).results.map((r) => r.source_id);
      return { c, scope, topic, found };
    }

    test('a deleted reply is not found, and is again once restored', async () => {
      const { scope, topic, found } = await community();
      const { topic: t, reply } = await topic(
        'Exporter question',
        'How do I export things?',
        'Use the frobnicator flag.',
      );
      assert.deepEqual(await found('frobnicator'), [reply!.id]);
      await scope.moderatorActions.setPostDeleted(reply!.id, deletion());
      assert.deepEqual(await found('frobnicator'), []);
      assert.deepEqual(await found('export'), [t.id], 'the rest of the topic is still found');
      await scope.moderatorActions.setPostDeleted(reply!.id, null);
      assert.deepEqual(await found('frobnicator'), [reply!.id]);
    });

    test("a deleted topic's posts are not found, and are again once restored", async () => {
      const { scope, topic, found } = await community();
      const { topic: t, reply } = await topic(
        'Quuxbar crashes',
        'The quuxbar crashes at start.',
        'A quuxbar workaround.',
      );
      const { topic: other } = await topic('Other quuxbar topic', 'Quuxbar works here.');
      assert.equal((await found('quuxbar')).length, 2);
      await scope.moderatorActions.setTopic(t.id, { deleted: deletion() });
      assert.deepEqual(await found('quuxbar'), [other.id]);
      await scope.moderatorActions.setTopic(t.id, { deleted: null });
      const again = await found('quuxbar');
      assert.equal(again.length, 2);
      assert.ok(again.includes(t.id) || again.includes(reply!.id));
      await scope.moderatorActions.setPostDeleted(reply!.id, deletion());
      await scope.moderatorActions.setTopic(t.id, { deleted: deletion() });
      await scope.moderatorActions.setTopic(t.id, { deleted: null });
      assert.deepEqual(await found('workaround'), [], 'a reply deleted on its own stays out');
    });

    test("a merge moves the posts' search hits to the target; a deleted reply stays out", async () => {
      const { c, scope, topic, found } = await community();
      const { topic: target } = await topic('Target topic', 'The target question text.');
      const { topic: source, reply } = await topic(
        'Source topic',
        'The glimmerwick question.',
        'A snorkelvane reply.',
      );
      await scope.moderatorActions.setPostDeleted(reply!.id, deletion());
      await scope.moderatorActions.mergePosts(source.id, target.id);
      const hits = await search.search([c], 'glimmerwick', {});
      assert.deepEqual(
        hits.results.map((r) => r.topic_id),
        [target.id],
      );
      assert.deepEqual(await found('snorkelvane'), []);
    });

    test("a duplicate adds its wording to the original's profile, and the original is queued again", async () => {
      const { scope, topic } = await community();
      const { topic: original } = await topic(
        'Gateway timeout',
        'The gateway times out.',
        'Raise the limit.',
      );
      const { topic: dup } = await topic('Proxy hangs forever', 'Our zeppelinproxy hangs forever.');
      assert.equal(
        countsOf(
          (await buildProfiles(opened.db, [original.id])).get(original.id)!,
          'zeppelinproxi',
        ),
        undefined,
      );
      await sql`delete from search_profile_queue where topic_id = ${original.id}`.execute(
        opened.db,
      );
      await scope.moderatorActions.setTopic(dup.id, { duplicateOf: original.id });
      const queued = await sql<{
        n: number;
      }>`select count(*) as n from search_profile_queue where topic_id = ${original.id}`.execute(
        opened.db,
      );
      assert.equal(Number(queued.rows[0]!.n), 1);
      const profile = (await buildProfiles(opened.db, [original.id])).get(original.id)!;
      const term = [...profile.terms.matchAll(/ (zeppelin\w*)=/g)][0]?.[1];
      assert.ok(term, "the duplicate's word is in the original's profile");
      assert.ok(countsOf(profile, term)![1] > 0, 'as part of its question');
    });
  });
}
