// Bookmarks on the web without JavaScript: the topic page's toggles (aria-pressed) bookmark the
// topic and a reply, /bookmarks lists them newest first and pages by cursor, pressing again (or
// "Remove") takes one back, another person sees none of them, and a reply a moderator deleted
// leaves the list (and cannot be bookmarked) for someone who may no longer read it; agents have none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { raw } from '../mcp/http-client.ts';
import { WebClient } from './client.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
let h: TestHamlet;
let acme: Community;

async function signedIn(email: string, name: string): Promise<WebClient> {
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  await h.services.accounts.addMember(system, acme, { email, role: 'member' });
  const client = new WebClient(`http://acme.localhost:${h.port}`);
  await client.get('/signin');
  const home = await client.post('/signin', { email, password: PASSWORD, next: '/' });
  assert.match(home.text, /Signed in as/);
  return client;
}

async function topicWithReply(title: string) {
  const asked = await h.services.writes.execute(system, acme, 'topic.create', {
    category: 'support',
    title,
    body: 'How do I keep a topic to read later?',
  });
  assert.equal(asked.status, 'applied');
  const slug = asked.status === 'applied' ? asked.result.topic!.slug : '';
  const replied = await h.services.writes.execute(system, acme, 'post.create', {
    topic: slug,
    body: 'Bookmark it: the button is under each post.',
  });
  const reply = replied.status === 'applied' ? replied.result.post!.id : '';
  return { slug, reply };
}

/** The bookmark buttons' states on a page, in order. */
const pressed = (html: string) =>
  [
    ...html.matchAll(/class="secondary bookmark(?: icon-button)?" aria-pressed="(true|false)"/g),
  ].map((m) => m[1]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(() => h.stop());

test('bookmark a topic and a reply, list them, remove them; they are private', async () => {
  const ada = await signedIn('bm-ada@example.org', 'Ada Reader');
  const bob = await signedIn('bm-bob@example.org', 'Bob Other');
  const { slug, reply } = await topicWithReply('Where do I keep topics for later?');

  const visitor = new WebClient(`http://acme.localhost:${h.port}`);
  assert.deepEqual(pressed((await visitor.get(`/t/${slug}`)).text), [], 'visitors get no toggles');
  assert.equal((await visitor.get('/bookmarks')).status, 303, 'visitors are sent to sign in');

  const first = await ada.get(`/t/${slug}`);
  assert.match(first.text, /<a href="\/bookmarks">Bookmarks<\/a>/, 'the header links the page');
  assert.match((await ada.get('/account')).text, /<a href="\/bookmarks">Your bookmarks<\/a>/);
  assert.deepEqual(pressed(first.text), ['false', 'false', 'false'], 'topic, question, reply');
  const kept = await ada.post(`/t/${slug}/bookmark`, { bookmarked: 'true' });
  assert.match(kept.text, /The topic is in your bookmarks\./);
  assert.deepEqual(pressed(kept.text), ['true', 'false', 'false']);
  await sleep(5);
  const keptReply = await ada.post(`/t/${slug}/bookmark`, { post: reply, bookmarked: 'true' });
  assert.match(keptReply.text, /The post is in your bookmarks\./);
  assert.deepEqual(pressed(keptReply.text), ['true', 'false', 'true']);
  assert.match(keptReply.text, /press again to remove the bookmark/);
  // Each bookmark call is audited once, naming the write and what it bookmarked.
  const topicId = (await h.store.community(acme.id).topics.getBySlug(slug))!.id;
  const audited = (await h.store.identity.audit.list(acme.id, { limit: 50 })).items
    .filter((e) => e.actorName === 'Ada Reader' && e.action.includes('bookmark'))
    .map((e) => [e.action, e.outcome, e.targets]);
  assert.deepEqual(audited, [
    ['tool:bookmark', 'ok', { write: 'bookmark.set', topic_id: topicId, post_id: reply }],
    ['tool:bookmark', 'ok', { write: 'bookmark.set', topic_id: topicId }],
  ]);

  const list = await ada.get('/bookmarks');
  const items = [...list.text.matchAll(/<li><a href="(\/t\/[^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(items, [`/t/${slug}#post-${reply}`, `/t/${slug}`], 'newest first');
  assert.match(list.text, /A reply by /);
  assert.match(list.text, /Bookmark it: the button is under each post\./);

  const theirs = await bob.get('/bookmarks');
  assert.match(theirs.text, /No bookmarks yet/, "Bob sees none of Ada's");
  assert.deepEqual(pressed((await bob.get(`/t/${slug}`)).text), ['false', 'false', 'false']);

  // Pressing the pressed toggle takes the bookmark back; "Remove" on the list does too.
  const back = await ada.post(`/t/${slug}/bookmark`, { bookmarked: 'false' });
  assert.match(back.text, /The topic is no longer in your bookmarks\./);
  assert.deepEqual(pressed(back.text), ['false', 'false', 'true']);
  await ada.get('/bookmarks');
  const removed = await ada.post(`/t/${slug}/bookmark`, {
    post: reply,
    bookmarked: 'false',
    back: 'bookmarks',
  });
  assert.match(removed.text, /<h1>Bookmarks<\/h1>/);
  assert.match(removed.text, /No bookmarks yet/);
});

test('a deleted or hidden reply leaves the list of someone who may no longer read it', async () => {
  const cy = await signedIn('bm-cy@example.org', 'Cy Reader');
  const { slug, reply } = await topicWithReply('Which posts stay bookmarked?');
  const other = await topicWithReply('A topic whose question gets hidden');
  await cy.get(`/t/${slug}`);
  await cy.post(`/t/${slug}/bookmark`, { post: reply, bookmarked: 'true' });
  await cy.post(`/t/${other.slug}/bookmark`, { bookmarked: 'true' });
  assert.equal([...(await cy.get('/bookmarks')).text.matchAll(/<li><a href="\/t\//g)].length, 2);

  const scope = h.store.community(acme.id);
  await scope.moderatorActions.setPostDeleted(reply, {
    at: new Date().toISOString(),
    by: 'Mo',
    reason: 'Off topic.',
  });
  const question = (await h.store.community(acme.id).topics.getBySlug(other.slug))!;
  const first = (await scope.posts.getFirst(question.id))!;
  await scope.moderation.hide({
    postId: first.id,
    topicId: question.id,
    position: 1,
    cause: 'moderator',
    note: 'Spam.',
    byName: 'Mo',
  });
  const list = await cy.get('/bookmarks');
  assert.match(list.text, /No bookmarks yet/);
  assert.doesNotMatch(list.text, /Which posts stay bookmarked|whose question gets hidden/);
  await cy.get(`/t/${slug}`);
  const again = await cy.post(`/t/${slug}/bookmark`, { post: reply, bookmarked: 'true' });
  assert.equal(again.status, 404, 'a deleted post cannot be bookmarked (nor named)');
});

test('the list pages by cursor, newest first, neither skipping nor repeating', async () => {
  const dee = await signedIn('bm-dee@example.org', 'Dee Reader');
  const person = (await h.store.people.getByEmail('bm-dee@example.org'))!;
  const scope = h.store.community(acme.id);
  const slugs: string[] = [];
  for (let i = 0; i < 23; i++) {
    const { slug } = await topicWithReply(`Bookmarked topic number ${i}`);
    const t = (await scope.topics.getBySlug(slug))!;
    await scope.bookmarks.add(person.id, { kind: 'topic', id: t.id });
    slugs.push(slug);
    await sleep(3);
  }
  const seen: string[] = [];
  let path = '/bookmarks';
  for (let n = 0; n < 3; n++) {
    const got = await dee.get(path);
    seen.push(...[...got.text.matchAll(/<li><a href="\/t\/([^"#]+)">/g)].map((m) => m[1]!));
    const more = got.text.match(/<a href="([^"]+)">Older bookmarks<\/a>/);
    if (!more) break;
    path = more[1]!.replace(/&amp;/g, '&');
  }
  assert.deepEqual(seen, slugs.slice().reverse());
});

test('agents have no bookmarks: the REST API refuses them, naming what they use instead', async () => {
  const { key } = await h.services.agents.create(system, acme, {
    name: 'bookmark-bot',
    scopes: ['post:create'],
  });
  const got = await raw(`http://acme.localhost:${h.port}/api/v1/bookmarks`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(got.status, 403);
  assert.match(got.text, /Bookmarks are for people/);
});
