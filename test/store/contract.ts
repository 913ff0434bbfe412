// The behaviour every Store adapter must show. sqlite.test.ts and postgres.test.ts run it against a
// real engine each. Tests share one migrated database; each creates its own communities (unique
// slugs), which is itself what the tenancy rules are about.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/store/repositories.ts';
import { MissingRow, UniqueViolation } from '../../src/store/errors.ts';
import type { AuthorRef, Keyset } from '../../src/store/types.ts';

export type StoreFactory = {
  open: () => Promise<Store>;
  cleanup?: () => Promise<void>;
};

const person: AuthorRef = { kind: 'person', id: null, name: 'Ada' };

function slug(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export function defineStoreContract(engine: string, factory: StoreFactory): void {
  describe(`store contract (${engine})`, () => {
    let store: Store;

    before(async () => {
      store = await factory.open();
    });
    after(async () => {
      await store?.close();
      await factory.cleanup?.();
    });

    async function community(visibility: 'public' | 'private' = 'public') {
      const c = await store.communities.create({ slug: slug('c'), name: 'Community', visibility });
      const scope = store.community(c.id);
      const category = await scope.categories.create({
        slug: 'general',
        name: 'General',
        kind: 'discussion',
      });
      return { community: c, scope, category };
    }

    async function topicWithPosts(
      scope: ReturnType<Store['community']>,
      categoryId: string,
      title: string,
      replies = 0,
      createdAt?: string,
    ) {
      const topic = await scope.topics.create({
        categoryId,
        slug: slug('t'),
        title,
        author: person,
        createdAt,
      });
      await scope.posts.create({
        topicId: topic.id,
        author: person,
        body: `question of ${title}`,
        createdAt,
      });
      // Replies a minute apart after the topic (when it has a time): orders never rest on ties.
      for (let i = 0; i < replies; i++)
        await scope.posts.create({
          topicId: topic.id,
          author: person,
          body: `reply ${i}`,
          createdAt: createdAt
            ? new Date(Date.parse(createdAt) + (i + 1) * 60_000).toISOString()
            : undefined,
        });
      return (await scope.topics.getById(topic.id))!;
    }

    test('migrate is idempotent and the database answers ping', async () => {
      assert.deepEqual(await store.migrate(), []);
      await store.ping();
    });

    test('the readiness write probe commits its heartbeat, again and again', async () => {
      await store.probeWrite();
      await store.probeWrite();
      await Promise.all([store.probeWrite(), store.probeWrite(), store.probeWrite()]);
    });

    test('a community is found by slug and by custom domain, and its slug is unique', async () => {
      const s = slug('acme');
      const created = await store.communities.create({
        slug: s,
        name: 'Acme',
        visibility: 'public',
        description: 'Rockets',
      });
      assert.equal((await store.communities.getBySlug(s))?.id, created.id);
      assert.equal((await store.communities.getBySlug(s))?.description, 'Rockets');
      assert.equal(await store.communities.getBySlug(slug('nobody')), undefined);
      // Several at once, by id or slug, in one statement: those that exist.
      const other = await store.communities.create({
        slug: slug('other'),
        name: 'Other',
        visibility: 'private',
      });
      const ids = (xs: { id: string }[]) => xs.map((x) => x.id).sort();
      assert.deepEqual(
        ids(await store.communities.getByIds([created.id, other.id, 'not-a-uuid'])),
        [created.id, other.id].sort(),
      );
      assert.deepEqual(
        ids(await store.communities.getBySlugs([s, other.slug, slug('nobody')])),
        [created.id, other.id].sort(),
      );
      assert.deepEqual(await store.communities.getByIds([]), []);
      await assert.rejects(
        store.communities.create({ slug: s, name: 'Other', visibility: 'public' }),
        UniqueViolation,
      );

      const domain = `${s}.example.org`;
      await store.communities.update(created.id, { customDomain: domain.toUpperCase() });
      assert.equal((await store.communities.getByDomain(domain))?.slug, s);
      assert.equal(await store.communities.getByDomain(`other-${domain}`), undefined);
    });

    test('listing public communities leaves private ones out and pages without gaps', async () => {
      const privateOne = await community('private');
      const publics = [await community(), await community(), await community()];
      const seen: string[] = [];
      let after: Keyset | undefined;
      for (;;) {
        const page = await store.communities.listPublic({ after, limit: 2 });
        seen.push(...page.items.map((c) => c.id));
        assert.ok(page.items.every((c) => c.visibility === 'public'));
        if (!page.next) break;
        after = page.next;
      }
      assert.ok(!seen.includes(privateOne.community.id));
      for (const p of publics) assert.ok(seen.includes(p.community.id));
      assert.equal(new Set(seen).size, seen.length);
    });

    test('categories are listed by position with their topic counts', async () => {
      const { scope, category } = await community();
      const docs = await scope.categories.create({
        slug: 'docs',
        name: 'Docs',
        kind: 'knowledge_base',
        position: 0,
      });
      await topicWithPosts(scope, category.id, 'One');
      await topicWithPosts(scope, category.id, 'Two');
      const list = await scope.categories.listWithCounts();
      assert.deepEqual(
        list.map((c) => [c.slug, c.kind, c.topicCount]),
        [
          ['docs', 'knowledge_base', 0],
          ['general', 'discussion', 2],
        ],
      );
      assert.equal(docs.position, 0);
      await assert.rejects(
        scope.categories.create({ slug: 'docs', name: 'Again', kind: 'discussion' }),
        UniqueViolation,
      );
      // The counts follow moves, in this community only.
      const other = await community();
      await topicWithPosts(other.scope, other.category.id, 'Elsewhere');
      assert.equal(await scope.categories.moveTopics(category.id, docs.id), 2);
      const counts = async (s: typeof scope) =>
        (await s.categories.listWithCounts()).map((c) => [c.slug, c.topicCount]);
      assert.deepEqual(await counts(scope), [
        ['docs', 2],
        ['general', 0],
      ]);
      assert.deepEqual(await counts(other.scope), [['general', 1]]);
      await topicWithPosts(scope, category.id, 'Three');
      assert.deepEqual(await counts(scope), [
        ['docs', 2],
        ['general', 1],
      ]);
      assert.equal(await scope.categories.topicCount(docs.id), 2);
    });

    test('topic slugs are unique per community, not across communities', async () => {
      const a = await community();
      const b = await community();
      await a.scope.topics.create({
        categoryId: a.category.id,
        slug: 'same',
        title: 'A',
        author: person,
      });
      await assert.rejects(
        a.scope.topics.create({
          categoryId: a.category.id,
          slug: 'same',
          title: 'A2',
          author: person,
        }),
        UniqueViolation,
      );
      const inB = await b.scope.topics.create({
        categoryId: b.category.id,
        slug: 'same',
        title: 'B',
        author: person,
      });
      assert.equal((await b.scope.topics.getBySlug('same'))?.id, inB.id);
      assert.equal((await a.scope.topics.getBySlug('same'))?.title, 'A');
      assert.deepEqual((await a.scope.topics.slugsLike('same')).sort(), ['same']);
      assert.equal(await a.scope.topics.slugAvailable('same'), false);
      assert.equal(await a.scope.topics.slugAvailable('free'), true);
    });

    test('posts get positions 1..n in order, even when written concurrently', async () => {
      const { scope, category } = await community();
      const topic = await scope.topics.create({
        categoryId: category.id,
        slug: 'busy',
        title: 'Busy',
        author: person,
      });
      const made = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          scope.posts.create({ topicId: topic.id, author: person, body: `post ${i}` }),
        ),
      );
      assert.deepEqual(
        made.map((p) => p.position).sort((x, y) => x - y),
        [1, 2, 3, 4, 5, 6, 7, 8],
      );
      assert.equal((await scope.topics.getById(topic.id))?.postCount, 8);
      assert.equal((await scope.posts.getFirst(topic.id))?.position, 1);
    });

    test('posts are paged by position without gaps or repeats', async () => {
      const { scope, category } = await community();
      const topic = await topicWithPosts(scope, category.id, 'Long', 6);
      const bodies: string[] = [];
      let after: Keyset | undefined;
      for (;;) {
        const page = await scope.posts.listByTopic(topic.id, { after, limit: 3 });
        bodies.push(...page.items.map((p) => p.body));
        if (!page.next) break;
        after = page.next;
      }
      assert.deepEqual(bodies, [
        'question of Long',
        'reply 0',
        'reply 1',
        'reply 2',
        'reply 3',
        'reply 4',
        'reply 5',
      ]);
    });

    test('topic pages stay stable when topics are added between pages', async () => {
      const { scope, category } = await community();
      const made = [];
      for (let i = 0; i < 5; i++)
        made.push(
          await topicWithPosts(scope, category.id, `T${i}`, 0, `2020-01-0${i + 1}T00:00:00.000Z`),
        );
      const first = await scope.topics.list({ sort: 'created', limit: 2 });
      assert.deepEqual(
        first.items.map((t) => t.title),
        ['T4', 'T3'],
      );
      await topicWithPosts(scope, category.id, 'Newer'); // lands before the cursor, not in later pages
      const titles = first.items.map((t) => t.title);
      let after = first.next ?? undefined;
      while (after) {
        const page = await scope.topics.list({ sort: 'created', limit: 2, after });
        titles.push(...page.items.map((t) => t.title));
        after = page.next ?? undefined;
      }
      assert.deepEqual(titles, ['T4', 'T3', 'T2', 'T1', 'T0']);
    });

    test('topics are sorted by latest activity, by replies, and filtered by tag, category and state', async () => {
      const { scope, category } = await community();
      const other = await scope.categories.create({
        slug: 'other',
        name: 'Other',
        kind: 'discussion',
      });
      const quiet = await topicWithPosts(
        scope,
        category.id,
        'Quiet',
        0,
        '2021-01-01T00:00:00.000Z',
      );
      await topicWithPosts(scope, category.id, 'Busy', 3, '2021-01-02T00:00:00.000Z');
      const solved = await topicWithPosts(scope, other.id, 'Solved', 1, '2021-01-03T00:00:00.000Z');
      await scope.topics.setTags(quiet.id, ['sqlite', 'help']);
      const answer = (await scope.posts.listByTopic(solved.id, { limit: 10 })).items[1]!;
      await scope.topics.update(solved.id, { solutionPostId: answer.id });
      await scope.posts.create({
        topicId: quiet.id,
        author: person,
        body: 'bump',
        createdAt: '2030-01-01T00:00:00.000Z',
      });

      const titles = async (q: Parameters<typeof scope.topics.list>[0]) =>
        (await scope.topics.list(q)).items.map((t) => t.title);
      // Quiet was bumped last (2030); Solved's reply was written after Busy's replies.
      assert.deepEqual(await titles({ sort: 'latest', limit: 10 }), ['Quiet', 'Solved', 'Busy']);
      const top = await titles({ sort: 'top', limit: 10 });
      assert.equal(top[0], 'Busy'); // 4 posts; the two others have 2 each (tie broken by id)
      assert.deepEqual(top.slice(1).sort(), ['Quiet', 'Solved']);
      assert.deepEqual(await titles({ sort: 'latest', limit: 10, tag: 'sqlite' }), ['Quiet']);
      assert.deepEqual(await titles({ sort: 'latest', limit: 10, categoryId: other.id }), [
        'Solved',
      ]);
      assert.deepEqual(await titles({ sort: 'latest', limit: 10, filter: 'solved' }), ['Solved']);
      const unanswered = await store.transaction(async (tx) => {
        const s = tx.community(scope.communityId);
        const t = await s.topics.create({
          categoryId: category.id,
          slug: slug('u'),
          title: 'Lonely',
          author: person,
        });
        await s.posts.create({ topicId: t.id, author: person, body: 'anyone?' });
        return t;
      });
      const docs = await scope.categories.create({
        slug: 'docs',
        name: 'Docs',
        kind: 'knowledge_base',
      });
      await topicWithPosts(scope, docs.id, 'An article', 0, '2021-01-04T00:00:00.000Z');
      // An article has one post and no reply, and is still not an unanswered question.
      assert.deepEqual(await titles({ sort: 'latest', limit: 10, filter: 'unanswered' }), [
        'Lonely',
      ]);
      assert.equal((await scope.topics.getById(quiet.id))?.tags.join(','), 'help,sqlite');
      assert.deepEqual(
        (await scope.topics.listTags(10)).map((t) => t.tag),
        ['help', 'sqlite'],
      );
      assert.equal((await scope.topics.getById(unanswered.id))?.postCount, 1);
    });

    test('original dates of imported content are kept as ISO strings', async () => {
      const { scope, category } = await community();
      const topic = await topicWithPosts(scope, category.id, 'Old', 0, '2002-08-22T11:36:23.000Z');
      assert.equal(topic.createdAt, '2002-08-22T11:36:23.000Z');
      assert.equal(topic.lastPostedAt, '2002-08-22T11:36:23.000Z');
      const reply = await scope.posts.create({
        topicId: topic.id,
        author: person,
        body: 'later',
        createdAt: '2002-08-23T08:00:00+02:00',
      });
      assert.equal(reply.createdAt, '2002-08-23T06:00:00.000Z');
      assert.equal((await scope.posts.getById(reply.id))?.createdAt, '2002-08-23T06:00:00.000Z');
      assert.equal(
        (await scope.topics.getById(topic.id))?.lastPostedAt,
        '2002-08-23T06:00:00.000Z',
      );
    });

    test("community B's ids are not found through community A", async () => {
      const a = await community();
      const b = await community();
      const bTopic = await topicWithPosts(b.scope, b.category.id, 'Secret of B', 1);
      const bPost = (await b.scope.posts.listByTopic(bTopic.id, { limit: 5 })).items[1]!;

      assert.equal(await a.scope.topics.getById(bTopic.id), undefined);
      assert.equal(await a.scope.topics.getBySlug(bTopic.slug), undefined);
      assert.equal(await a.scope.posts.getById(bPost.id), undefined);
      assert.equal(await a.scope.categories.getById(b.category.id), undefined);
      assert.deepEqual((await a.scope.posts.listByTopic(bTopic.id, { limit: 5 })).items, []);
      assert.deepEqual((await a.scope.topics.list({ sort: 'latest', limit: 50 })).items, []);
      assert.equal(await a.scope.topics.update(bTopic.id, { status: 'closed' }), undefined);
      assert.equal(await a.scope.posts.updateBody(bPost.id, 'defaced'), undefined);
      await assert.rejects(
        a.scope.posts.create({ topicId: bTopic.id, author: person, body: 'intrusion' }),
        MissingRow,
      );
      await assert.rejects(
        a.scope.topics.create({ categoryId: b.category.id, slug: 'x', title: 'x', author: person }),
        MissingRow,
      );
      await assert.rejects(
        a.scope.articles.add({ topicId: bTopic.id, title: 'x', body: 'x', author: person }),
        MissingRow,
      );

      const untouched = await b.scope.topics.getById(bTopic.id);
      assert.equal(untouched?.status, 'open');
      assert.equal(untouched?.postCount, 2);
      assert.equal((await b.scope.posts.getById(bPost.id))?.body, 'reply 0');
    });

    test('malformed ids are simply not found', async () => {
      const { scope } = await community();
      assert.equal(await scope.topics.getById('not-a-uuid'), undefined);
      assert.equal(await scope.posts.getById("1' or '1'='1"), undefined);
      assert.equal(await store.communities.getById('nope'), undefined);
      assert.equal(
        await store.community('nope').topics.getById('00000000-0000-0000-0000-000000000000'),
        undefined,
      );
    });

    test('a transaction commits when its function resolves and leaves nothing when it throws', async () => {
      const { scope, category } = await community();
      await assert.rejects(
        store.transaction(async (tx) => {
          const s = tx.community(scope.communityId);
          const t = await s.topics.create({
            categoryId: category.id,
            slug: 'doomed',
            title: 'Doomed',
            author: person,
          });
          await s.posts.create({ topicId: t.id, author: person, body: 'never seen' });
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await scope.topics.getBySlug('doomed'), undefined);
      const kept = await store.transaction(async (tx) =>
        tx.transaction((inner) =>
          inner.community(scope.communityId).topics.create({
            categoryId: category.id,
            slug: 'kept',
            title: 'Kept',
            author: person,
          }),
        ),
      );
      assert.equal((await scope.topics.getBySlug('kept'))?.id, kept.id);
    });

    test('article revisions are numbered and kept', async () => {
      const { scope } = await community();
      const kb = await scope.categories.create({
        slug: 'docs',
        name: 'Docs',
        kind: 'knowledge_base',
      });
      const article = await topicWithPosts(scope, kb.id, 'How to');
      await scope.articles.add({
        topicId: article.id,
        title: 'How to',
        body: 'v1',
        author: person,
      });
      await scope.articles.add({
        topicId: article.id,
        title: 'How to, better',
        body: 'v2',
        author: { kind: 'agent', id: null, name: 'bot' },
      });
      const revisions = await scope.articles.list(article.id);
      assert.deepEqual(
        revisions.map((r) => [r.revision, r.title, r.body, r.author.kind]),
        [
          [1, 'How to', 'v1', 'person'],
          [2, 'How to, better', 'v2', 'agent'],
        ],
      );
    });

    test('people: e-mail is optional, unique regardless of case', async () => {
      const email = `${slug('p')}@Example.org`;
      const p = await store.people.create({ displayName: 'Grace', email });
      assert.equal((await store.people.getByEmail(email.toLowerCase()))?.id, p.id);
      await assert.rejects(
        store.people.create({ displayName: 'Copy', email: email.toUpperCase() }),
        UniqueViolation,
      );
      const a = await store.people.create({ displayName: 'Imported A' });
      const b = await store.people.create({ displayName: 'Imported B' });
      assert.notEqual(a.id, b.id);
      assert.equal((await store.people.getById(a.id))?.email, null);
    });

    test('agents are unique by name within their community only', async () => {
      const a = await community();
      const b = await community();
      const bot = await a.scope.agents.create({ name: 'helper' });
      await assert.rejects(a.scope.agents.create({ name: 'helper' }), UniqueViolation);
      await b.scope.agents.create({ name: 'helper' });
      assert.equal((await a.scope.agents.getByName('helper'))?.id, bot.id);
      assert.equal(await b.scope.agents.getById(bot.id), undefined);
    });

    test('import book-keeping refuses a message key twice and is per community', async () => {
      const a = await community();
      const b = await community();
      const topic = await topicWithPosts(a.scope, a.category.id, 'Imported');
      const post = (await a.scope.posts.getFirst(topic.id))!;
      await a.scope.imports.recordMessage({
        messageKey: '<m1@x>',
        topicId: topic.id,
        postId: post.id,
      });
      await assert.rejects(
        a.scope.imports.recordMessage({ messageKey: '<m1@x>', topicId: topic.id, postId: post.id }),
        UniqueViolation,
      );
      assert.equal((await a.scope.imports.findMessage('<m1@x>'))?.postId, post.id);
      assert.equal(await b.scope.imports.findMessage('<m1@x>'), undefined);
      assert.equal(await a.scope.imports.countMessages(), 1);
      const person1 = await store.people.create({ displayName: 'Imported' });
      await a.scope.imports.recordPerson('hash1', person1.id);
      assert.equal(await a.scope.imports.findPerson('hash1'), person1.id);
      assert.equal(await b.scope.imports.findPerson('hash1'), undefined);
    });
  });
}
