// People on the web, on the path form: a profile lives at /u/<handle> (an id moves there, on both
// forms); a person changes their name, bio and picture at /profile (control characters and
// overlong text refused, saying what to fix; the picture must be an image); a moderator suspends
// a member from the profile, the member still reads the public pages and is told until when (a
// <time> with a readable date, one full stop), is not offered "Ask a question", and the moderator
// lifts it there; the moderation log has both; the author of a post opens a user card; the members
// page finds a member by a part of the name and pages 25 at a time.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';
import type { Community } from '../../src/store/types.ts';
import { fileHamlet, type FileHamlet } from '../helpers/in-process.ts';
import { png } from '../helpers/png.ts';
import { visible, WebClient } from './client.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
const hamlet = fileHamlet(
  { HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000', HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '5000' },
  { demo: true },
);
let h: FileHamlet;
let acme: Community;
let topicSlug: string;
const P = '/c/acme';

async function account(email: string, name: string, role: 'member' | 'moderator' | 'owner') {
  const made = await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  await h.services.accounts.addMember(system, acme, { email, role });
  return made;
}

async function signIn(email: string): Promise<WebClient> {
  const client = new WebClient(`http://localhost:${h.port}`);
  await client.get(`${P}/signin`);
  const res = await client.post(`${P}/signin`, { email, password: PASSWORD, next: `${P}/` });
  assert.equal(res.status, 200);
  return client;
}

before(async () => {
  h = await hamlet();
  acme = (await h.store.communities.getBySlug('acme'))!;
  const pia = await account('pia@example.org', 'Pia Poster', 'member');
  await account('max@example.org', 'Max Moderator', 'moderator');
  await account('oona@example.org', 'Oona Owner', 'owner');
  const made = await writeApplied(
    h.services.writes,
    { kind: 'person', personId: pia.id, displayName: 'Pia Poster' },
    acme,
    'topic.create',
    {
      category: 'support',
      title: 'Pia asks about exporter batches',
      body: 'The last batch goes missing.',
    },
  );
  topicSlug = made.topic.slug;
});

test('a profile is at /u/<handle>; /u/<id> moves there in the form it was asked in', async () => {
  const pia = (await h.store.people.getByEmail('pia@example.org'))!;
  const byId = await h.get(null, `${P}/u/${pia.id}`);
  assert.equal(byId.status, 302);
  assert.equal(byId.headers.location, `${P}/u/${pia.handle}`);
  const onHost = await h.get('acme', `/u/${pia.id}`);
  assert.equal(onHost.headers.location, `/u/${pia.handle}`);
  const page = await h.get(null, `${P}/u/${pia.handle}`);
  assert.equal(page.status, 200);
  assert.match(visible(page.text), new RegExp(`Pia Poster @${pia.handle}`));
  assert.equal((await h.get(null, `${P}/u/nobody-has-this-handle`)).status, 404);
});

test('a person changes name, bio and picture; control characters and a non-image are refused', async () => {
  const pia = await signIn('pia@example.org');
  await pia.get(`${P}/profile`);
  const bad = await pia.post(`${P}/profile`, { name: 'Pia\u202eevil', bio: 'ok' });
  assert.equal(bad.status, 400);
  assert.match(visible(bad.text), /must not contain control characters or invisible formatting/);
  const long = await pia.post(`${P}/profile`, { name: 'Pia', bio: 'x'.repeat(1001) });
  assert.equal(long.status, 400);
  assert.match(visible(long.text), /must be at most 1000 characters/);
  const notImage = await pia.postFiles(
    `${P}/profile`,
    { name: 'Pia P.', bio: '' },
    { avatar: new File(['%PDF-1.4\n%%EOF\n'], 'me.pdf', { type: 'application/pdf' }) },
  );
  assert.equal(notImage.status, 400);
  assert.match(visible(notImage.text), /is not an image/);
  await pia.get(`${P}/profile`);
  const saved = await pia.postFiles(
    `${P}/profile`,
    { name: 'Pia P.', bio: 'Runs the exporter.\nLikes batches.' },
    { avatar: new File([png(80, 80)], 'me.png', { type: 'image/png' }) },
  );
  assert.equal(saved.status, 200);
  assert.match(visible(saved.text), /Your profile is saved/);
  assert.match(saved.text, /<h1>Pia P\.<\/h1>/);
  assert.match(saved.text, /<p>Runs the exporter\.<br>Likes batches\.<\/p>/);
  const img = saved.text.match(/<img class="avatar photo" src="([^"]+)"/);
  assert.ok(img, 'the picture shows');
  assert.ok(img[1]!.startsWith(`${P}/uploads/`), 'in the path form');
  assert.equal((await pia.get(img[1]!)).headers['content-type'], 'image/png');
  // Back to the initials.
  await pia.get(`${P}/profile`);
  const removed = await pia.post(`${P}/profile`, {
    name: 'Pia Poster',
    bio: 'Runs the exporter.',
    no_avatar: 'on',
  });
  assert.doesNotMatch(removed.text, /avatar photo/);
});

test('a moderator suspends a member from the profile; they still read, are told until when, and are lifted there', async () => {
  const max = await signIn('max@example.org');
  const pia = await signIn('pia@example.org');
  const handle = (await h.store.people.getByEmail('pia@example.org'))!.handle!;
  const profile = await max.get(`${P}/u/${handle}`);
  assert.match(visible(profile.text), /Moderate .* may read and write here/);
  const done = await max.post(`${P}/moderation/sanctions`, {
    subject_kind: 'person',
    subject: (await h.store.people.getByEmail('pia@example.org'))!.id,
    mode: 'suspended',
    days: '3',
    reason: 'Spam links.',
    back: `/u/${handle}`,
  });
  assert.equal(done.status, 200);
  assert.ok(max.last?.text.includes(`<h1>Pia Poster</h1>`), 'back on the profile');
  assert.match(
    visible(done.text),
    /Pia Poster is suspended until \w{3} \d+, \d{4}, \d\d:\d\d UTC\./,
  );
  assert.match(
    done.text,
    /is suspended until <time datetime="[^"]+Z">\w{3} \d+, \d{4}, \d\d:\d\d UTC<\/time>/,
  );

  const home = await pia.get(`${P}/`);
  assert.equal(home.status, 200, 'a suspended person reads the public community');
  assert.doesNotMatch(home.text, />Ask a question</, 'not offered');
  const told = home.text.match(/You are suspended here until (<time[^>]*>[^<]*<\/time>)[^<]*/);
  assert.ok(told, 'told atop the page');
  assert.match(told[0], /by Max Moderator: Spam links\. Ask a moderator/);
  assert.doesNotMatch(told[0], /\.\./);
  const topic = await pia.get(`${P}/t/${topicSlug}`);
  assert.equal(topic.status, 200);
  const reply = await pia.post(`${P}/t/${topicSlug}/reply`, { body: 'Still here?' });
  assert.match(
    visible(reply.text),
    /You are suspended in "acme" until \w{3} \d+, \d{4}, \d\d:\d\d UTC by Max Moderator: Spam links\. Ask/,
    visible(reply.text).slice(0, 1500),
  );
  assert.doesNotMatch(visible(reply.text), /\d{4}-\d\d-\d\dT/, 'no raw ISO time');

  await max.get(`${P}/u/${handle}`);
  const lifted = await max.post(`${P}/moderation/sanctions/lift`, {
    subject_kind: 'person',
    subject: (await h.store.people.getByEmail('pia@example.org'))!.id,
    back: `/u/${handle}`,
  });
  assert.match(visible(lifted.text), /Lifted\. .*may read and write here/);
  assert.match((await pia.get(`${P}/`)).text, />Ask a question</);
  const log = visible((await max.get(`${P}/moderation`)).text);
  assert.match(log, /lift Pia Poster/);
  assert.match(log, /suspend Pia Poster for 3 days Spam links\./);
});

test("a post's author opens a user card: the profile, and for moderators the way to suspend", async () => {
  const max = await signIn('max@example.org');
  const page = await max.get(`${P}/t/${topicSlug}`);
  const card = page.text.match(
    /<details class="user-card"><summary>Pia Poster<\/summary>.*?<\/details>/,
  );
  assert.ok(card, 'a user card on the author');
  assert.match(card[0], new RegExp(`href="${P}/u/[0-9a-f-]{36}"`));
  assert.match(card[0], /Suspend or silence…/);
  const visitor = await h.get(null, `${P}/t/${topicSlug}`);
  const seen = visitor.text.match(
    /<details class="user-card"><summary>Pia Poster<\/summary>.*?<\/details>/,
  );
  assert.ok(seen);
  assert.doesNotMatch(seen[0], /Suspend/, 'visitors are not offered it');
});

test('the members page finds a member by a part of the name and pages 25 at a time', async () => {
  for (let i = 0; i < 26; i++) await account(`bulk${i}@example.org`, `Bulk Person ${i}`, 'member');
  const oona = await signIn('oona@example.org');
  const first = await oona.get(`${P}/admin/members`);
  assert.equal((first.text.match(/<tr><th scope="row"/g) ?? []).length, 25);
  const older = first.text.match(/href="([^"]+cursor=[^"]+)">Older members/);
  assert.ok(older, 'a link to the older members');
  const second = await oona.get(older[1]!.replace(/&amp;/g, '&'));
  assert.ok((second.text.match(/<tr><th scope="row"/g) ?? []).length >= 1);
  const found = await oona.get(`${P}/admin/members?q=POSTER`);
  const names = [
    ...found.text.matchAll(/<th scope="row" data-label="Name"><a [^>]*>([^<]+)</g),
  ].map((m) => m[1]);
  assert.deepEqual(names, ['Pia Poster']);
  assert.match(found.text, /value="POSTER"/, 'the search stays in its field');
  const none = await oona.get(`${P}/admin/members?q=zzqqxx`);
  assert.match(visible(none.text), /No member's name, e-mail address or handle contains “zzqqxx”/);
});

test('a moderator silences an agent from its profile and is brought back to it', async () => {
  const max = await signIn('max@example.org');
  const { agent } = await h.services.agents.create(system, acme, {
    name: 'chatty-bot',
    scopes: ['post:create'],
  });
  const profile = await max.get(`${P}/u/${agent.id}`);
  assert.equal(profile.status, 200);
  assert.match(visible(profile.text), /Moderate chatty-bot may read and write here/);
  const done = await max.post(`${P}/moderation/sanctions`, {
    subject_kind: 'agent',
    subject: agent.id,
    mode: 'silenced',
    days: '1',
    reason: 'Too many replies',
    back: `/u/${agent.id}`,
  });
  assert.match(
    visible(done.text),
    /chatty-bot is silenced until .* by Max Moderator: Too many replies/,
  );
  const visitor = await h.get(null, `${P}/u/${agent.id}`);
  assert.doesNotMatch(visible(visitor.text), /Moderate/, 'visitors see no moderation');
});
