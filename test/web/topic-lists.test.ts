// Topic lists as a regular reader sees them, without JavaScript, on the path form: the posts that
// came since they read a topic (and "New" for a recent topic never opened), the last poster with an
// agent marked, views counted in memory and written in a batch (a visitor's read writes no row),
// pinned / locked / closed in words, and "New since your last visit" on the home page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor, type PersonActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { WebClient } from './client.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
let h: TestHamlet;
let acme: Community;

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(() => h.stop());

async function reader(email: string, name: string): Promise<[WebClient, PersonActor]> {
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  await h.services.accounts.addMember(system, acme, { email, role: 'member' });
  const client = new WebClient(h.hostUrl('localhost', ''));
  await client.get('/c/acme/signin');
  const home = await client.post('/c/acme/signin', {
    email,
    password: PASSWORD,
    next: '/c/acme/search',
  });
  assert.match(home.text, /Signed in as/);
  const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
  return [client, (await h.services.accounts.resolveWebSession(token))!];
}

/** The list row of a topic on a page (its <li>). */
function row(page: string, title: string): string {
  const at = page.indexOf(`>${title}</a>`);
  assert.ok(at > 0, `“${title}” is listed`);
  return page.slice(page.lastIndexOf('<li>', at), page.indexOf('</li>', at));
}

test('unread posts since my last read, the last poster, views, markers, new since my last visit', async () => {
  const [client, me] = await reader('lists-reader@example.org', 'Lee Reader');
  const [, other] = await reader('lists-other@example.org', 'Oda Other');
  // My previous visit began two hours ago: what happens now is new since then.
  await h.store
    .community(acme.id)
    .topicReads.visit(me.personId, new Date(Date.now() - 2 * 3_600_000).toISOString(), 3_600_000);
  const asked = await h.services.writes.execute(other, acme, 'topic.create', {
    category: 'support',
    title: 'How are unread replies counted here?',
    body: 'Per person, I hope.',
  });
  assert.equal(asked.status, 'applied');
  const topic = asked.status === 'applied' ? asked.result.topic! : undefined;
  const agent = await h.services.agents.create(system, acme, {
    name: 'count-bot',
    scopes: ['post:create'],
  });
  const bot = await h.services.auth.authenticateAgentKey(acme, agent.key);

  let home = (await client.get('/c/acme/')).text;
  assert.match(home, /New since your last visit/);
  const since = home.slice(
    home.indexOf('New since your last visit'),
    home.indexOf('<h2>Categories'),
  );
  assert.match(since, /How are unread replies counted here\?/);
  assert.match(
    row(home, 'How are unread replies counted here?'),
    /New<span class="visually-hidden"> topic, not opened yet/,
  );

  // Reading it: no longer new; views are counted in memory until the batch is written.
  const before = h.services.reading.views.waiting;
  assert.match((await client.get(`/c/acme/t/${topic!.slug}`)).text, /Per person, I hope\./);
  const visitor = new WebClient(h.hostUrl('localhost', ''));
  await visitor.get(`/c/acme/t/${topic!.slug}`);
  await visitor.get(`/c/acme/t/${topic!.slug}`);
  assert.equal(h.services.reading.views.waiting, before + 3);
  const rows = await h.store.community(acme.id).topicReads.among(other.personId, [topic!.id]);
  assert.equal(rows.size, 0, 'the visitor and the others wrote no read of their own');
  await h.services.reading.views.flush();
  home = (await client.get('/c/acme/')).text;
  assert.match(row(home, 'How are unread replies counted here?'), /3 views/);
  assert.doesNotMatch(row(home, 'How are unread replies counted here?'), /unread-count|new-topic/);

  // An agent replies twice: two unread for me, the agent named as the last poster.
  for (const body of ['Per person: each reader has a read position.', 'And per topic.'])
    assert.equal(
      (await h.services.writes.execute(bot, acme, 'post.create', { topic: topic!.id, body }))
        .status,
      'applied',
    );
  home = (await client.get('/c/acme/')).text;
  const mine = row(home, 'How are unread replies counted here?');
  assert.match(mine, /<span class="unread-count">2<span class="visually-hidden"> posts unread/);
  assert.match(
    mine,
    /last by <span class="avatar[^"]*agent"[^>]*>CB<\/span><a href="[^"]+">count-bot<\/a> <span class="badge agent">Agent<\/span>/,
  );
  assert.match(mine, /2 replies/);
  const latest = (await client.get('/c/acme/latest')).text;
  assert.match(row(latest, 'How are unread replies counted here?'), /unread-count">2/);
  await client.get(`/c/acme/t/${topic!.slug}`);
  assert.doesNotMatch(
    row((await client.get('/c/acme/')).text, 'How are unread replies counted here?'),
    /unread-count/,
  );

  // Markers in words: pinned, locked, closed.
  await h.store.community(acme.id).moderatorActions.setTopic(topic!.id, {
    pinnedAt: new Date().toISOString(),
    lockedAt: new Date().toISOString(),
  });
  const marked = row((await visitor.get('/c/acme/')).text, 'How are unread replies counted here?');
  assert.match(marked, /<span class="marker">Pinned<\/span>/);
  assert.match(marked, /<span class="marker">Locked<\/span>/);
  assert.doesNotMatch(marked, /unread-count|new-topic/, 'a visitor has no read state');
});
