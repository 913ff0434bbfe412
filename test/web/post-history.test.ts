// Edit history on the web: a post edited on its edit page shows "edited" linked to its history,
// which lists every version newest first with the words each edit removed (<del>) and added
// (<ins>), said in words too, and the question's title change; a post edited before versions were
// kept says its earlier ones are lost; a deleted post's history is not found; an article's
// revisions show their changes the same way.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { WebClient } from './client.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
let h: TestHamlet;
let acme: Community;

async function signedIn(email: string, name: string) {
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  await h.services.accounts.addMember(system, acme, { email, role: 'member' });
  const client = new WebClient(`http://acme.localhost:${h.port}`);
  await client.get('/signin');
  await client.post('/signin', { email, password: PASSWORD, next: '/' });
  const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
  return { client, actor: (await h.services.accounts.resolveWebSession(token))! };
}

/** The version headings of a history page, in order. */
const headings = (html: string) =>
  [...html.matchAll(/<h2 id="v-\d+">([^<]+)<\/h2>/g)].map((m) => m[1]);

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(() => h.stop());

test('an edited question links its history: every version, and the words each edit changed', async () => {
  const { client, actor } = await signedIn('hist-ada@example.org', 'Ada Editor');
  const asked = await h.services.writes.execute(actor, acme, 'topic.create', {
    category: 'support',
    title: 'How do I rotate the signing key?',
    body: 'I rotate the key every month with the old command.',
  });
  assert.equal(asked.status, 'applied');
  const { slug } = asked.status === 'applied' ? asked.result.topic! : { slug: '' };
  const post = asked.status === 'applied' ? asked.result.post!.id : '';

  const fresh = await client.get(`/t/${slug}`);
  assert.doesNotMatch(fresh.text, /history\/[^"]*">edited/, 'not edited: no link');
  await client.get(`/t/${slug}/edit/${post}`);
  await client.post(`/t/${slug}/edit/${post}`, {
    title: 'How do I rotate the webhook signing key?',
    body: 'I rotate the key every week with the old command.',
  });
  await client.get(`/t/${slug}/edit/${post}`);
  const saved = await client.post(`/t/${slug}/edit/${post}`, {
    title: 'How do I rotate the webhook signing key?',
    body: 'I rotate the key every week with the new command.',
  });
  assert.match(saved.text, /Your changes were saved/);
  const link = `/t/${slug}/history/${post}`;
  assert.match(
    saved.text,
    new RegExp(`<a href="${link}">edited <time[^>]*>just now</time><span class="visually-hidden">`),
  );

  const history = await client.get(link);
  assert.equal(history.status, 200);
  assert.deepEqual(headings(history.text), [
    'Version 3: How do I rotate the webhook signing key?',
    'Version 2: How do I rotate the webhook signing key?',
    'Version 1: How do I rotate the signing key?',
  ]);
  const removed = [
    ...history.text.matchAll(/<del><span class="visually-hidden">\[removed: <\/span>([^<]*)</g),
  ].map((m) => m[1]!.trim());
  const added = [
    ...history.text.matchAll(/<ins><span class="visually-hidden">\[added: <\/span>([^<]*)</g),
  ].map((m) => m[1]!.trim());
  // Newest first: version 3 changed "old" to "new"; version 2 "month" to "week", and the title.
  assert.deepEqual(removed, ['old', 'month']);
  assert.deepEqual(added, ['new', 'webhook', 'week']);
  assert.match(history.text, /<strong>Title:<\/strong> <span class="diff">/);
  assert.match(history.text, /The first version kept\./);
  assert.match(history.text, /class="meta diff-legend"/);
  assert.doesNotMatch(history.text, /earlier ones are lost/);

  // Anyone who may read the post may read its history, visitors of a public community too.
  const visitor = new WebClient(`http://acme.localhost:${h.port}`);
  assert.equal((await visitor.get(link)).status, 200);
  await h.store.community(acme.id).moderatorActions.setPostDeleted(post, {
    at: new Date().toISOString(),
    by: 'Mo',
    reason: 'Off topic.',
  });
  assert.equal((await visitor.get(link)).status, 404, "a deleted post's history is gone too");
  assert.equal((await client.get(link)).status, 404, 'for its author too (not a moderator)');
});

test('a post edited before versions were kept says so; one never edited has one version', async () => {
  const asked = await h.services.writes.execute(system, acme, 'topic.create', {
    category: 'support',
    title: 'An old question edited long ago',
    body: 'The body as it was edited before versions were kept.',
  });
  const { slug } = asked.status === 'applied' ? asked.result.topic! : { slug: '' };
  const post = asked.status === 'applied' ? asked.result.post!.id : '';
  const visitor = new WebClient(`http://acme.localhost:${h.port}`);
  const once = await visitor.get(`/t/${slug}/history/${post}`);
  assert.deepEqual(headings(once.text), ['Version 1: An old question edited long ago']);
  assert.match(once.text, /one version/);
  await h.store.community(acme.id).posts.updateBody(post, 'Edited the old way, no versions kept.');
  const old = await visitor.get(`/t/${slug}/history/${post}`);
  assert.match(old.text, /edited before its versions were kept: the earlier ones are lost/);
  assert.match(old.text, /Edited the old way, no versions kept\./);
});

test("an article's history shows each revision's changes", async () => {
  for (const body of ['Install Hamlet with npm.', 'Install Hamlet with npm and start it.'])
    await writeApplied(h.services.writes, system, acme, 'article.write', {
      category: 'docs',
      slug: 'history-article',
      title: 'Installing',
      body,
    });
  const visitor = new WebClient(`http://acme.localhost:${h.port}`);
  const page = await visitor.get('/t/history-article/revisions');
  assert.deepEqual(headings(page.text), ['Revision 2: Installing', 'Revision 1: Installing']);
  assert.match(page.text, /<ins><span class="visually-hidden">\[added: <\/span>npm and start it\./);
  assert.match(page.text, /<del><span class="visually-hidden">\[removed: <\/span>npm\./);
  const article = await visitor.get('/t/history-article');
  assert.match(article.text, /<a href="\/t\/history-article\/revisions">edited/);
});
