// Stored renders as callers see them (ContentService on a SQLite store): a post is rendered when it
// is written and read back from the store without rendering again, a render by an older renderer
// is redone on read and written back, edits and article revisions keep their renders, a post that
// renders too large shows a notice and its raw Markdown, and a topic's pages stay within the byte
// budget whatever the posts weigh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { CommunityService } from '../../src/domain/communities.ts';
import { ContentService } from '../../src/domain/content.ts';
import { ContentEvents } from '../../src/domain/events.ts';
import { AuditService } from '../../src/domain/identity/audit.ts';
import { postEdit } from '../../src/domain/writes/post-edit.ts';
import { WriteRunner } from '../../src/domain/writes/runner.ts';
import { CategoryService } from '../../src/domain/categories.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';
import { WriteService } from '../../src/domain/writes/write-service.ts';
import { renderMarkdown } from '../../src/domain/markdown.ts';
import { RENDER_LIMITS, RENDERER_VERSION } from '../../src/domain/rendering.ts';
import type { PostView } from '../../src/domain/views.ts';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { AuthorRef, Community } from '../../src/store/types.ts';

const config = loadConfig({ HAMLET_BASE_DOMAIN: 'hamlet.test' });
const system = systemActor('test');
const SYSTEM_AUTHOR: AuthorRef = { kind: 'system', id: null, name: 'test' };
let store: Store;
let content: ContentService;
let runner: WriteRunner;
let writes: WriteService;
let acme: Community;

before(async () => {
  store = await openStore('sqlite::memory:');
  content = new ContentService(store, config);
  runner = new WriteRunner({
    store,
    config,
    events: new ContentEvents(),
    audit: new AuditService(store),
  });
  writes = new WriteService(store, config, content.events, new AuditService(store));
  const communities = new CommunityService(store);
  await communities.create(system, { slug: 'acme', name: 'Acme' });
  acme = await communities.require(system, 'acme');
  const categories = new CategoryService(writes.runner);
  await categories.create(system, acme, { name: 'Support' });
  await categories.create(system, acme, { name: 'Docs', kind: 'knowledge_base' });
});
after(() => store.close());

const scope = () => store.community(acme.id);
const bytes = (s: string) => Buffer.byteLength(s);

/** A Markdown table of one-digit cells, `size` bytes long: about 5.5 bytes of HTML per byte. */
function table(size: number, seed: number, align = false): string {
  const head = `|${' c |'.repeat(12)}\n|${(align ? ':-:|' : '---|').repeat(12)}\n`;
  let out = `Run ${seed} <script>alert(1)</script>\n\n${head}`;
  for (let r = 0; out.length < size - 30; r++)
    out += `|${Array.from({ length: 12 }, (_, c) => `${(r + c + seed) % 10}|`).join('')}\n`;
  return out;
}

async function topicOf(bodies: string[]): Promise<{ id: string; slug: string }> {
  const { topic } = await writeApplied(writes, system, acme, 'topic.create', {
    category: 'support',
    title: `A topic of ${bodies.length} posts ${Math.random()}`,
    body: bodies[0]!,
  });
  for (const body of bodies.slice(1))
    await writeApplied(writes, system, acme, 'post.create', { topic: topic.id, body });
  return topic;
}

/** Every post of the topic, page after page, and each page's posts. */
async function allPages(topicId: string, shown: 'html' | 'markdown', limit = 100) {
  const pages: PostView[][] = [];
  let cursor: string | null = null;
  do {
    const page = await content.getTopic(system, acme, { topic: topicId, cursor, limit }, shown);
    pages.push(page.posts);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

test('a post is rendered when written, and read from the store without rendering again', async () => {
  const topic = await topicOf(['What does **this** do, exactly?', 'It _works_.']);
  const [question] = (await scope().posts.listByTopic(topic.id, { limit: 10 })).items;
  assert.deepEqual(question!.rendered, {
    html: renderMarkdown('What does **this** do, exactly?'),
    version: RENDERER_VERSION,
  });
  // Whatever the store holds for a current render is what readers get: nothing renders on read.
  const marker = { html: '<p>the stored render</p>', version: RENDERER_VERSION };
  await scope().posts.saveRendered(question!.id, question!.body, {
    ...marker,
    version: RENDERER_VERSION + 1,
  });
  const read = await content.getTopic(system, acme, { topic: topic.id });
  assert.equal(read.posts[0]!.html, '<p>the stored render</p>');
  assert.equal(read.posts[1]!.html, '<p>It <em>works</em>.</p>\n');
});

test('a post rendered by an older renderer (or never) is rendered on read and written back', async () => {
  const topic = await topicOf(['Rendered at write time, this one.']);
  // Written straight through the store, as every post before migration 0074 was: no render.
  const old = await scope().posts.create({
    topicId: topic.id,
    author: SYSTEM_AUTHOR,
    body: '**old**',
  });
  assert.equal(old.rendered, null);
  const read = await content.getTopic(system, acme, { topic: topic.id }, 'html');
  assert.equal(read.posts[1]!.html, '<p><strong>old</strong></p>\n');
  assert.deepEqual((await scope().posts.getById(old.id))!.rendered, {
    html: '<p><strong>old</strong></p>\n',
    version: RENDERER_VERSION,
  });
});

test('an edit stores the new render; an article and each revision keep theirs', async () => {
  const topic = await topicOf(['Before the edit, a question.', 'first answer']);
  const reply = (await scope().posts.listByTopic(topic.id, { limit: 10 })).items[1]!;
  const edited = await runner.run(postEdit, system, acme, {
    post: reply.id,
    body: 'second *answer*',
  });
  assert.equal(edited.post.html, '<p>second <em>answer</em></p>\n');
  assert.equal((await scope().posts.getById(reply.id))!.rendered?.html, edited.post.html);

  await writeApplied(writes, system, acme, 'article.write', {
    category: 'docs',
    title: 'Install guide',
    body: 'version **one**',
  });
  const v2 = await writeApplied(writes, system, acme, 'article.write', {
    category: 'docs',
    title: 'Install guide',
    body: 'version _two_',
  });
  assert.equal(v2.post.html, '<p>version <em>two</em></p>\n');
  const stored = await scope().articles.list(v2.topic.id);
  assert.deepEqual(
    stored.map((r) => r.rendered?.version),
    [RENDERER_VERSION, RENDERER_VERSION],
  );
  // A revision without a render (written before migration 0074) is rendered on read and kept.
  await scope().articles.add({
    topicId: v2.topic.id,
    title: 'Install guide',
    body: 'v3',
    author: SYSTEM_AUTHOR,
  });
  const revisions = await content.listArticleRevisions(system, acme, { topic: v2.topic.id });
  assert.deepEqual(
    revisions.map((r) => r.html),
    ['<p>version <strong>one</strong></p>\n', '<p>version <em>two</em></p>\n', '<p>v3</p>\n'],
  );
  assert.equal((await scope().articles.list(v2.topic.id))[2]!.rendered?.html, '<p>v3</p>\n');
});

test('a post that renders too large shows a notice and its raw Markdown, escaped', async () => {
  const huge = table(45_000, 1, true); // alignment styles on every cell: ~12 bytes of HTML a byte
  assert.ok(bytes(renderMarkdown(huge)) > RENDER_LIMITS.postHtmlBytes);
  const topic = await topicOf([huge]);
  const [post] = (await content.getTopic(system, acme, { topic: topic.id }, 'html')).posts;
  assert.match(post!.html, /This post is too large to show here/);
  assert.match(
    post!.html,
    /<details class="raw"><summary>View raw Markdown \(44 KB\)<\/summary><pre>/,
  );
  assert.match(post!.html, /Run 1 &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.doesNotMatch(post!.html, /<script|<table/);
  assert.ok(bytes(post!.html) < bytes(huge) + 2_000, `${bytes(post!.html)} bytes`);
  assert.equal(post!.body, huge.trim());
});

test("a topic's pages stay within the byte budget, and together hold every post once", async () => {
  // Eight posts that each render to ~240 KB: two fit a page of HTML; all fit a page of Markdown.
  const bodies = Array.from({ length: 8 }, (_, i) => table(43_000, i));
  const topic = await topicOf(bodies);
  const html = await allPages(topic.id, 'html');
  assert.deepEqual(
    html.map((p) => p.length),
    [2, 2, 2, 2],
  );
  for (const page of html)
    assert.ok(page.reduce((n, p) => n + bytes(p.html), 0) <= RENDER_LIMITS.pageBytes);
  assert.deepEqual(
    html.flat().map((p) => p.position),
    [1, 2, 3, 4, 5, 6, 7, 8],
  );
  const markdown = await allPages(topic.id, 'markdown');
  assert.deepEqual(
    markdown.map((p) => p.length),
    [8],
  );
  // The post limit still applies under the budget.
  assert.deepEqual(
    (await allPages(topic.id, 'markdown', 3)).map((p) => p.length),
    [3, 3, 2],
  );
});
