// Notifications on the web without JavaScript: the header's bell counts what is unread, a reply
// with an @mention shows on /notifications with its link, forms mark read, the topic page's
// control mutes a topic, and /account/notifications keeps the e-mail frequency and the handle.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
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

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(() => h.stop());

test('the bell, /notifications, mark read, mute, and the preferences page', async () => {
  const asker = await signedIn('web-asker@example.org', 'Web Asker');
  const helper = await signedIn('web-helper@example.org', 'Web Helper');
  const { token } = await h.services.accounts.signIn({
    email: 'web-asker@example.org',
    password: PASSWORD,
  });
  const askerActor = (await h.services.accounts.resolveWebSession(token))!;
  const asked = await h.services.writes.execute(askerActor, acme, 'topic.create', {
    category: 'support',
    title: 'Where is the bell in the header?',
    body: 'I would like to know when someone answers.',
  });
  assert.equal(asked.status, 'applied');
  const slug = asked.status === 'applied' ? asked.result.topic!.slug : '';

  assert.match((await asker.get('/')).text, /aria-label="Notifications: 0 unread"/);
  await helper.get(`/t/${slug}`);
  const replied = await helper.post(`/t/${slug}/reply`, {
    body: 'It is at the top, @web-asker: look for the bell.',
  });
  assert.match(replied.text, /class="mention"[^>]*>@web-asker<\/a>/);

  const home = await asker.get('/');
  assert.match(home.text, /aria-label="Notifications: 1 unread"/);
  const list = await asker.get('/notifications');
  assert.match(list.text, /Web Helper mentioned you in “Where is the bell in the header\?”/);
  assert.match(list.text, new RegExp(`href="[^"]*/t/${slug}#post-`));
  assert.match(list.text, /It is at the top, @web-asker: look for the bell\./, 'the excerpt');
  assert.match(home.text, /<details class="bell-menu">/, 'the bell opens a menu');
  assert.match(home.text, /class="what">.*Web Helper mentioned you/s);
  // Opening the topic reads its notifications: the page it opens already shows the bell at 0.
  const opened = await asker.get(`/t/${slug}`);
  assert.match(opened.text, /aria-label="Notifications: 0 unread"/);
  assert.match((await asker.get('/notifications')).text, /0 unread/);
  await helper.post(`/t/${slug}/reply`, { body: 'One more thing, @web-asker.' });
  assert.match((await asker.get('/')).text, /aria-label="Notifications: 1 unread"/);
  const read = await asker.post('/notifications/read', { all: 'true' });
  assert.match(read.text, /All notifications are marked read/);
  assert.match(read.text, /aria-label="Notifications: 0 unread"/);

  // Asking watched the topic; the control mutes it, and the next reply notifies nobody.
  const topicPage = await asker.get(`/t/${slug}`);
  assert.match(topicPage.text, /<option value="watch" selected>/);
  const muted = await asker.post(`/t/${slug}/level`, { level: 'mute' });
  assert.match(muted.text, /Notifications for this topic: mute/);
  await helper.get(`/t/${slug}`);
  await helper.post(`/t/${slug}/reply`, { body: 'Did you find it?' });
  assert.match((await asker.get('/')).text, /aria-label="Notifications: 0 unread"/);

  const prefs = await asker.get('/account/notifications');
  assert.match(prefs.text, /<option value="immediately" selected>/);
  const weekly = await asker.post('/account/notifications', { email_frequency: 'weekly' });
  assert.match(weekly.text, /<option value="weekly" selected>/);
  const handle = await asker.post('/account/handle', { handle: 'bell-finder' });
  assert.match(handle.text, /Your handle is now @bell-finder/);
  const taken = await helper.post('/account/handle', { handle: 'bell-finder' }, { follow: true });
  assert.match(taken.text, /The handle &quot;@bell-finder&quot; is taken/);

  // Visitors see no bell; a form without its token is refused.
  assert.doesNotMatch(
    (await new WebClient(`http://acme.localhost:${h.port}`).get('/')).text,
    /class="bell/,
  );
  const forged = await asker.post('/notifications/read', { all: 'true' }, { csrf: null });
  assert.equal(forged.status, 403);
});
