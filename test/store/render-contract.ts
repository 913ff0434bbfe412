// What every Store adapter does with rendered HTML (migration 0074): a post or revision keeps the
// render it was written with, an edit replaces or clears it, a render made on read is stored only
// over an older one and only while the body is still the one rendered, each community's rows only,
// and a page of a topic can be cut by bytes without loading the posts past the cut.
// sqlite.test.ts and postgres.test.ts run it against a real engine each.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/store/repositories.ts';
import type { AuthorRef } from '../../src/store/types.ts';
import type { StoreFactory } from './contract.ts';

const person: AuthorRef = { kind: 'person', id: null, name: 'Ada' };

export function defineRenderContract(engine: string, factory: StoreFactory): void {
  describe(`rendered HTML store contract (${engine})`, () => {
    let store: Store;
    before(async () => {
      store = await factory.open();
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    async function topic() {
      const c = await store.communities.create({
        slug: `r-${randomBytes(4).toString('hex')}`,
        name: 'Rendering',
        visibility: 'public',
      });
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      const t = await scope.topics.create({
        categoryId: category.id,
        slug: 'rendered',
        title: 'Rendered',
        author: person,
      });
      return { scope, topic: t };
    }

    test('a post keeps the render it was written with; one written without has none', async () => {
      const { scope, topic: t } = await topic();
      const rendered = { html: '<p><strong>hi</strong></p>', version: 3 };
      const post = await scope.posts.create({
        topicId: t.id,
        author: person,
        body: '**hi**',
        rendered,
      });
      assert.deepEqual(post.rendered, rendered);
      assert.deepEqual((await scope.posts.getById(post.id))?.rendered, rendered);
      const bare = await scope.posts.create({ topicId: t.id, author: person, body: 'plain' });
      assert.equal(bare.rendered, null);
      assert.equal((await scope.posts.getById(bare.id))?.rendered, null);
      const listed = (await scope.posts.listByTopic(t.id, { limit: 10 })).items;
      assert.deepEqual(
        listed.map((p) => p.rendered),
        [rendered, null],
      );
    });

    test('an edit replaces the render, or clears it when it brings none', async () => {
      const { scope, topic: t } = await topic();
      const post = await scope.posts.create({
        topicId: t.id,
        author: person,
        body: 'one',
        rendered: { html: '<p>one</p>', version: 1 },
      });
      const two = { html: '<p>two</p>', version: 1 };
      assert.deepEqual(
        (await scope.posts.updateBody(post.id, 'two', undefined, two))?.rendered,
        two,
      );
      assert.equal((await scope.posts.updateBody(post.id, 'three'))?.rendered, null);
      assert.equal((await scope.posts.getById(post.id))?.rendered, null);
    });

    test('a render made on read is stored over an older one, for the body it was made of', async () => {
      const { scope, topic: t } = await topic();
      const post = await scope.posts.create({ topicId: t.id, author: person, body: 'old body' });
      // Made of a body that was edited since: refused, the edit wins.
      await scope.posts.updateBody(post.id, 'new body');
      assert.equal(
        await scope.posts.saveRendered(post.id, 'old body', {
          html: '<p>old body</p>',
          version: 1,
        }),
        false,
      );
      assert.equal((await scope.posts.getById(post.id))?.rendered, null);
      const v1 = { html: '<p>new body</p>', version: 1 };
      assert.equal(await scope.posts.saveRendered(post.id, 'new body', v1), true);
      assert.deepEqual((await scope.posts.getById(post.id))?.rendered, v1);
      // The same version again, or an older one: refused (another instance got there first).
      assert.equal(
        await scope.posts.saveRendered(post.id, 'new body', { html: '<p>again</p>', version: 1 }),
        false,
      );
      const v2 = { html: '<p>newer</p>', version: 2 };
      assert.equal(await scope.posts.saveRendered(post.id, 'new body', v2), true);
      assert.equal(
        await scope.posts.saveRendered(post.id, 'new body', { html: '<p>older</p>', version: 1 }),
        false,
      );
      assert.deepEqual((await scope.posts.getById(post.id))?.rendered, v2);
      // Storing a render is not an edit: the body, the edit time and the position stay.
      const after = (await scope.posts.getById(post.id))!;
      assert.equal(after.body, 'new body');
      assert.equal(after.position, 1);
      assert.equal(await scope.posts.saveRendered('not-a-uuid', 'x', v2), false);
    });

    test("a community cannot store renders on another community's posts or revisions", async () => {
      const a = await topic();
      const b = await topic();
      const post = await b.scope.posts.create({ topicId: b.topic.id, author: person, body: 'b' });
      const revision = await b.scope.articles.add({
        topicId: b.topic.id,
        title: 'B',
        body: 'b',
        author: person,
      });
      const defaced = { html: '<p>defaced</p>', version: 9 };
      assert.equal(await a.scope.posts.saveRendered(post.id, 'b', defaced), false);
      assert.equal(await a.scope.articles.saveRendered(revision.id, defaced), false);
      assert.equal((await b.scope.posts.getById(post.id))?.rendered, null);
      assert.equal((await b.scope.articles.list(b.topic.id))[0]?.rendered, null);
    });

    test('a revision keeps its render; one made on read is stored over an older one only', async () => {
      const { scope, topic: t } = await topic();
      const v1 = { html: '<p>v1</p>', version: 1 };
      const first = await scope.articles.add({
        topicId: t.id,
        title: 'T',
        body: 'v1',
        rendered: v1,
        author: person,
      });
      const second = await scope.articles.add({
        topicId: t.id,
        title: 'T',
        body: 'v2',
        author: person,
      });
      assert.deepEqual(first.rendered, v1);
      assert.equal(second.rendered, null);
      const v2 = { html: '<p>v2</p>', version: 1 };
      assert.equal(await scope.articles.saveRendered(second.id, v2), true);
      assert.equal(await scope.articles.saveRendered(second.id, { html: 'x', version: 1 }), false);
      assert.deepEqual(
        (await scope.articles.list(t.id)).map((r) => r.rendered),
        [v1, v2],
      );
    });

    test('a page of posts cut by bytes holds the leading posts that fit, one at least', async () => {
      const { scope, topic: t } = await topic();
      // Bodies of 100 bytes; renders of 1,000 (posts 1-4) and none for post 5 (its body counts).
      for (let i = 1; i <= 5; i++)
        await scope.posts.create({
          topicId: t.id,
          author: person,
          body: String(i).repeat(100),
          rendered: i < 5 ? { html: 'h'.repeat(1000), version: 1 } : undefined,
        });
      const positions = (p: { items: { position: number }[] }) => p.items.map((x) => x.position);
      const byHtml = await scope.posts.listByTopic(t.id, {
        limit: 10,
        bytes: { of: 'html', max: 2050 },
      });
      assert.deepEqual(positions(byHtml), [1, 2]);
      assert.equal(byHtml.next?.key, 2);
      const rest = await scope.posts.listByTopic(t.id, {
        after: byHtml.next!,
        limit: 10,
        bytes: { of: 'html', max: 2050 },
      });
      assert.deepEqual(positions(rest), [3, 4]);
      const last = await scope.posts.listByTopic(t.id, {
        after: rest.next!,
        limit: 10,
        bytes: { of: 'html', max: 2050 },
      });
      assert.deepEqual(positions(last), [5]);
      assert.equal(last.next, null);
      // Markdown measured: all five bodies fit in 500 bytes; the limit still applies.
      const byBody = await scope.posts.listByTopic(t.id, {
        limit: 3,
        bytes: { of: 'body', max: 500 },
      });
      assert.deepEqual(positions(byBody), [1, 2, 3]);
      assert.equal(byBody.next?.key, 3);
      // One post larger than the whole budget still makes a page.
      const tight = await scope.posts.listByTopic(t.id, {
        limit: 10,
        bytes: { of: 'html', max: 10 },
      });
      assert.deepEqual(positions(tight), [1]);
      assert.equal(tight.next?.key, 1);
      // Past the end: nothing.
      const none = await scope.posts.listByTopic(t.id, {
        after: { key: 5, id: t.id },
        limit: 10,
        bytes: { of: 'html', max: 2050 },
      });
      assert.deepEqual(none, { items: [], next: null });
    });
  });
}
