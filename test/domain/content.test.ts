// ContentService behaviour as a caller (MCP tool, web page) sees it, on an in-memory SQLite store:
// its reads, and the writes it does for the write runner (written through the runner here).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.ts';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { Community } from '../../src/store/types.ts';
import { ContentService } from '../../src/domain/content.ts';
import { CategoryService } from '../../src/domain/categories.ts';
import { CommunityService } from '../../src/domain/communities.ts';
import { anonymous, systemActor, type Actor } from '../../src/domain/actor.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { ContentEvents, type ContentEvent } from '../../src/domain/events.ts';
import { AuditService } from '../../src/domain/identity/audit.ts';
import type { WriteKind } from '../../src/domain/vocabulary.ts';
import { writeApplied, type WriteInput } from '../../src/domain/writes/applied.ts';
import { WriteService } from '../../src/domain/writes/write-service.ts';

const config = loadConfig({ HAMLET_PUBLIC_SCHEME: 'https', HAMLET_BASE_DOMAIN: 'hamlet.test' });
const system = systemActor('test');
let store: Store;
let content: ContentService;
let writes: WriteService;
let communities: CommunityService;
let acme: Community;
let secret: Community;
const events: ContentEvent[] = [];

function code(expected: string) {
  return (err: unknown) => err instanceof DomainError && err.code === expected;
}

/** A write through the runner as `actor`: what it wrote (it must apply at once). */
async function write<K extends WriteKind>(
  actor: Actor,
  community: Community,
  kind: K,
  payload: WriteInput<K>,
) {
  return writeApplied(writes, actor, community, kind, payload);
}

before(async () => {
  store = await openStore('sqlite::memory:');
  const bus = new ContentEvents();
  bus.subscribe((e) => events.push(e));
  content = new ContentService(store, config, bus);
  writes = new WriteService(store, config, bus, new AuditService(store));
  communities = new CommunityService(store);
  await communities.create(system, { slug: 'acme', name: 'Acme' });
  await communities.create(system, { slug: 'secret', name: 'Secret', visibility: 'private' });
  acme = await communities.require(system, 'acme');
  secret = await communities.require(system, 'secret');
  const categories = new CategoryService(writes.runner);
  await categories.create(system, acme, { name: 'Support', description: 'Ask here' });
  await categories.create(system, acme, { name: 'Docs', kind: 'knowledge_base' });
  await categories.create(system, secret, { name: 'General' });
});
after(() => store.close());

/** An agent of `community` with the scopes of the four writes. */
async function agentOf(community: Community, name: string): Promise<Actor> {
  const agent = await store.community(community.id).agents.create({ name });
  const scopes = ['topic:create', 'post:create', 'solution:mark', 'article:write'];
  return { kind: 'agent', agentId: agent.id, communityId: community.id, name, scopes };
}

test('an agent asks a question; the topic and its first post are labelled and addressable', async () => {
  const bot = await agentOf(acme, 'helper-bot');
  const { topic, post } = await write(bot, acme, 'topic.create', {
    category: 'support',
    title: 'How do I reset my password?',
    body: 'It **fails** <script>x</script>',
    tags: ['Auth', 'login'],
  });
  assert.equal(topic.slug, 'how-do-i-reset-my-password');
  assert.equal(topic.url, 'https://acme.hamlet.test/t/how-do-i-reset-my-password');
  assert.equal(post.url, `https://acme.hamlet.test/t/how-do-i-reset-my-password#post-${post.id}`);
  assert.deepEqual(topic.tags, ['auth', 'login']);
  assert.deepEqual(topic.author, {
    kind: 'agent',
    id: (bot as { agentId: string }).agentId,
    name: 'helper-bot',
    label: 'posted by agent helper-bot on behalf of community acme',
  });
  assert.equal(post.isQuestion, true);
  assert.match(post.html, /<strong>fails<\/strong> &lt;script&gt;/);
  assert.deepEqual(events.at(-1), {
    type: 'topic.created',
    communityId: acme.id,
    topicId: topic.id,
    postId: post.id,
  });

  const again = await write(bot, acme, 'topic.create', {
    category: 'support',
    title: 'How do I reset my password?',
    body: 'A duplicate of it.',
  });
  assert.equal(again.topic.slug, 'how-do-i-reset-my-password-2');
});

test('replies, solution, and filters unanswered/solved', async () => {
  const asker: Actor = {
    kind: 'person',
    personId: (await store.people.create({ displayName: 'Ann' })).id,
    displayName: 'Ann',
  };
  const other: Actor = {
    kind: 'person',
    personId: (await store.people.create({ displayName: 'Bob' })).id,
    displayName: 'Bob',
  };
  const { topic } = await write(asker, acme, 'topic.create', {
    category: 'support',
    title: 'Backups on SQLite?',
    body: 'How do I back it up?',
  });
  const unanswered = await content.listTopics(anonymous, acme, { filter: 'unanswered' });
  assert.ok(unanswered.topics.some((t) => t.id === topic.id));

  const { post: answer } = await write(other, acme, 'post.create', {
    topic: topic.slug,
    body: 'Use `.backup`.',
  });
  assert.equal(answer.position, 2);
  await assert.rejects(
    write(other, acme, 'solution.mark', { topic: topic.id, post: answer.id }),
    code('forbidden'),
  );
  const first = (await content.getTopic(anonymous, acme, { topic: topic.id })).posts[0]!;
  await assert.rejects(
    write(asker, acme, 'solution.mark', { topic: topic.id, post: first.id }),
    code('invalid_argument'),
  );
  const { topic: solved } = await write(asker, acme, 'solution.mark', {
    topic: topic.id,
    post: answer.id,
  });
  assert.equal(solved.solutionPostId, answer.id);

  const view = await content.getTopic(anonymous, acme, { topic: topic.slug });
  assert.deepEqual(
    view.posts.map((p) => [p.position, p.isSolution, p.author.name]),
    [
      [1, false, 'Ann'],
      [2, true, 'Bob'],
    ],
  );
  assert.ok(
    (await content.listTopics(anonymous, acme, { filter: 'solved' })).topics.some(
      (t) => t.id === topic.id,
    ),
  );
  assert.ok(
    !(await content.listTopics(anonymous, acme, { filter: 'unanswered' })).topics.some(
      (t) => t.id === topic.id,
    ),
  );
  const cats = await content.listCategories(anonymous, acme);
  assert.deepEqual(
    cats.map((c) => [c.slug, c.kind]),
    [
      ['support', 'discussion'],
      ['docs', 'knowledge_base'],
    ],
  );
  assert.ok(cats[0]!.topicCount >= 3);
});

test('pagination of posts and topics through opaque cursors', async () => {
  const { topic } = await write(system, acme, 'topic.create', {
    category: 'support',
    title: 'Long thread',
    body: 'The question.',
  });
  for (let i = 1; i <= 4; i++)
    await write(system, acme, 'post.create', { topic: topic.id, body: `r${i}` });
  const p1 = await content.getTopic(anonymous, acme, { topic: topic.id, limit: 2 });
  const p2 = await content.getTopic(anonymous, acme, {
    topic: topic.id,
    limit: 2,
    cursor: p1.nextCursor,
  });
  const p3 = await content.getTopic(anonymous, acme, {
    topic: topic.id,
    limit: 2,
    cursor: p2.nextCursor,
  });
  assert.deepEqual(
    [...p1.posts, ...p2.posts, ...p3.posts].map((p) => p.body),
    ['The question.', 'r1', 'r2', 'r3', 'r4'],
  );
  assert.equal(p3.nextCursor, null);
  await assert.rejects(
    content.listTopics(anonymous, acme, { cursor: p1.nextCursor }),
    code('invalid_argument'),
  );

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { topics: { id: string }[]; nextCursor: string | null } = await content.listTopics(
      anonymous,
      acme,
      { sort: 'created', limit: 2, cursor },
    );
    seen.push(...page.topics.map((t) => t.id));
    cursor = page.nextCursor;
  } while (cursor);
  assert.equal(new Set(seen).size, seen.length);
  assert.ok(seen.length >= 4);
});

test('knowledge-base articles keep one body and every revision', async () => {
  const created = await write(system, acme, 'article.write', {
    category: 'docs',
    title: 'Getting started',
    body: 'Version one.',
  });
  assert.equal(created.created, true);
  assert.equal(created.topic.isArticle, true);
  const updated = await write(system, acme, 'article.write', {
    category: 'docs',
    slug: created.topic.slug,
    title: 'Getting started fast',
    body: 'Version two.',
  });
  assert.equal(updated.created, false);
  assert.equal(updated.revision, 2);
  const view = await content.getTopic(anonymous, acme, { topic: created.topic.id });
  assert.deepEqual(
    view.posts.map((p) => p.body),
    ['Version two.'],
  );
  assert.equal(view.topic.title, 'Getting started fast');
  assert.ok(view.posts[0]!.editedAt);
  const revisions = await content.listArticleRevisions(anonymous, acme, {
    topic: created.topic.slug,
  });
  assert.deepEqual(
    revisions.map((r) => [r.revision, r.body]),
    [
      [1, 'Version one.'],
      [2, 'Version two.'],
    ],
  );
  await assert.rejects(
    write(system, acme, 'post.create', { topic: created.topic.id, body: 'hi' }),
    code('conflict'),
  );
  // A new topic in a knowledge base is written as an article there.
  const routed = await writes.execute(system, acme, 'topic.create', {
    category: 'docs',
    title: 'Not like this',
    body: 'A question body.',
  });
  assert.deepEqual([routed.status, routed.kind], ['applied', 'article.write']);
  await assert.rejects(
    write(system, acme, 'article.write', {
      category: 'support',
      title: 'Wrong place',
      body: 'An article body.',
    }),
    code('invalid_argument'),
  );
});

test('who may do what: anonymous cannot write, private communities are invisible, agents stay home', async () => {
  await assert.rejects(
    write(anonymous, acme, 'topic.create', {
      category: 'support',
      title: 'Hello there',
      body: 'A question body.',
    }),
    code('unauthorized'),
  );
  await assert.rejects(content.listTopics(anonymous, secret), code('not_found'));
  await assert.rejects(communities.getBySlug(anonymous, 'secret'), code('not_found'));
  const acmeBot = await agentOf(acme, 'acme-bot');
  await assert.rejects(content.listTopics(acmeBot, secret), code('not_found'));
  const secretBot = await agentOf(secret, 'inside-bot');
  await assert.rejects(
    write(secretBot, acme, 'topic.create', {
      category: 'support',
      title: 'Cross post',
      body: 'A question body.',
    }),
    code('forbidden'),
  );
  const own = await write(secretBot, secret, 'topic.create', {
    category: 'general',
    title: 'Inside only',
    body: 'A question body.',
  });
  assert.equal((await content.listTopics(secretBot, secret)).topics[0]?.id, own.topic.id);
  // An id of the private community looked up through acme is not found.
  await assert.rejects(
    content.getTopic(anonymous, acme, { topic: own.topic.id }),
    code('not_found'),
  );
  // Only the system may backdate or write as someone else.
  await assert.rejects(
    write(acmeBot, acme, 'topic.create', {
      category: 'support',
      title: 'Backdated',
      body: 'A question body.',
      createdAt: '2001-01-01T00:00:00Z',
    }),
    (err: unknown) => code('forbidden')(err) && /original dates/.test((err as Error).message),
  );
  const publicList = await communities.listPublic();
  assert.deepEqual(
    publicList.communities.map((c) => c.slug),
    ['acme'],
  );
});

test('bad input is refused with the field named', async () => {
  await assert.rejects(
    write(system, acme, 'topic.create', { category: 'support', title: 'x', body: '' }),
    (err: unknown) =>
      err instanceof DomainError &&
      err.code === 'invalid_argument' &&
      /title/.test(err.message) &&
      /body/.test(err.message),
  );
  await assert.rejects(
    write(system, acme, 'topic.create', {
      category: 'nope',
      title: 'Valid title',
      body: 'A question body.',
    }),
    code('not_found'),
  );
  await assert.rejects(
    communities.create(system, { slug: 'Bad Slug!', name: 'x' }),
    code('invalid_argument'),
  );
  await assert.rejects(
    communities.create(system, { slug: 'www', name: 'x' }),
    code('invalid_argument'),
  );
  await assert.rejects(
    communities.create(system, { slug: 'acme', name: 'again' }),
    code('conflict'),
  );
});
