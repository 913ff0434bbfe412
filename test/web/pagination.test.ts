// Paging a long topic without JavaScript: page numbers, "Page 2 of 3" with the post count, previous
// and next marked rel="prev"/rel="next", first and last, and each page holding the posts of its
// positions (page 2 starts at post 31), so paging back from page 2 lands on page 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileHamlet } from '../helpers/in-process.ts';

const hamlet = fileHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });

test('a topic of 65 posts has three numbered pages, linked both ways', async () => {
  const h = await hamlet();
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const scope = h.store.community(acme.id);
  const category = (await scope.categories.getBySlug('support'))!;
  const author = { kind: 'person' as const, id: null, name: 'Pager' };
  const topic = await scope.topics.create({
    categoryId: category.id,
    slug: 'a-long-thread-of-posts',
    title: 'A long thread of posts',
    author,
  });
  await scope.posts.create({ topicId: topic.id, author, body: 'post number 1 of the thread' });
  for (let i = 2; i <= 65; i++)
    await scope.posts.create({ topicId: topic.id, author, body: `post number ${i} of the thread` });

  const first = await h.get('acme', '/t/a-long-thread-of-posts');
  assert.equal(first.status, 200);
  assert.match(first.text, /Page 1 of 3 · 65 posts/);
  assert.match(first.text, /post number 30 of/);
  assert.doesNotMatch(first.text, /post number 31 of/);
  assert.match(first.text, /<a href="\/t\/a-long-thread-of-posts\?page=2" rel="next">Next<\/a>/);
  assert.match(first.text, /<a href="\/t\/a-long-thread-of-posts\?page=3">Last<\/a>/);
  assert.doesNotMatch(first.text, /rel="prev"/);

  const second = await h.get('acme', '/t/a-long-thread-of-posts?page=2');
  assert.match(second.text, /Page 2 of 3 · 65 posts/);
  assert.match(second.text, /post number 31 of/);
  assert.match(second.text, /post number 60 of/);
  assert.doesNotMatch(second.text, /post number (30|61) of/);
  assert.match(second.text, /<a href="\/t\/a-long-thread-of-posts" rel="prev">Previous<\/a>/);
  assert.match(second.text, /<a href="\/t\/a-long-thread-of-posts" aria-label="Page 1">1<\/a>/);
  assert.match(second.text, /aria-current="page">2</);

  const last = await h.get('acme', '/t/a-long-thread-of-posts?page=3');
  assert.match(last.text, /Page 3 of 3/);
  assert.match(last.text, /post number 65 of/);
  assert.doesNotMatch(last.text, /rel="next"/);
});

test('a short topic shows its count and no page links', async () => {
  const h = await hamlet();
  const page = await h.get('acme', '/t/verifying-the-hamlet-signature-header');
  assert.match(page.text, /<p class="meta pager-count">\d+ posts<\/p>/);
  assert.doesNotMatch(page.text, /class="pager"/);
});

test('a category of 35 topics pages by number: page 2 links back to page 1', async () => {
  const h = await hamlet();
  const acme = (await h.store.communities.getBySlug('acme'))!;
  const scope = h.store.community(acme.id);
  const category = await scope.categories.create({
    slug: 'paged',
    name: 'Paged',
    kind: 'discussion',
  });
  const author = { kind: 'person' as const, id: null, name: 'Pager' };
  for (let i = 1; i <= 35; i++) {
    const t = await scope.topics.create({
      categoryId: category.id,
      slug: `paged-topic-${i}`,
      title: `Paged topic number ${i}`,
      author,
      createdAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
    });
    await scope.posts.create({
      topicId: t.id,
      author,
      body: `body ${i}`,
      createdAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
    });
  }
  const first = await h.get('acme', '/categories/paged');
  assert.match(first.text, /Page 1 of 2 · 35 topics/);
  assert.match(first.text, /Paged topic number 35</);
  assert.doesNotMatch(first.text, /Paged topic number 5</);
  assert.match(first.text, /<a href="\/categories\/paged\?page=2" rel="next">Next<\/a>/);
  const second = await h.get('acme', '/categories/paged?page=2');
  assert.match(second.text, /Page 2 of 2 · 35 topics/);
  assert.match(second.text, /Paged topic number 5</);
  assert.doesNotMatch(second.text, /Paged topic number 6</);
  assert.match(second.text, /<a href="\/categories\/paged" rel="prev">Previous<\/a>/);
  const filtered = await h.get('acme', '/categories/paged?filter=unanswered');
  assert.match(
    filtered.text,
    /<p class="meta">Page 1<\/p>/,
    'a filtered list is paged without a count',
  );
  assert.match(filtered.text, /\?filter=unanswered&amp;page=2" rel="next"/);
});
