// Every form of the moderator and administrator pages posts inside the community it was shown in:
// on the path form (/c/<slug>/…) each form's action starts with /c/<slug>/, and on the host form
// each stays on the host (a path of its own, never /c/…). The walk starts at the pages a moderator
// and an owner reach from the header (review, approvals, the moderation log, admin), a topic with a
// reply, its merge and delete pages, a person's profile (by id: it moves to the handle, in the same
// form) and the profile form, and follows every link to more moderator and admin pages.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';
import type { Community } from '../../src/store/types.ts';
import { fileHamlet, type FileHamlet } from '../helpers/in-process.ts';
import { WebClient } from './client.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
const hamlet = fileHamlet(
  {
    HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000',
    HAMLET_RATE_LIMIT_PER_KEY_PER_MINUTE: '5000',
    // Mail on, to a port where nothing listens: the admin mail table has pending rows to show.
    HAMLET_SMTP_URL: 'smtp://127.0.0.1:9',
  },
  { demo: true },
);
let h: FileHamlet;
let acme: Community;
let seeds: string[];

/** The pages followed from the seeds: those of moderators and administrators. */
const WALKED = /^\/(admin(\/|$)|review|approvals|moderation)/;

before(async () => {
  h = await hamlet();
  acme = (await h.store.communities.getBySlug('acme'))!;
  await h.services.accounts.createUser(system, {
    email: 'olga@example.org',
    password: PASSWORD,
    name: 'Olga Owner',
  });
  await h.services.accounts.addMember(system, acme, { email: 'olga@example.org', role: 'owner' });
  const mia = await h.services.accounts.createUser(system, {
    email: 'mia@example.org',
    password: PASSWORD,
    name: 'Mia Member',
  });
  await h.services.accounts.addMember(system, acme, { email: 'mia@example.org', role: 'member' });
  const made = await writeApplied(h.services.writes, system, acme, 'topic.create', {
    category: 'support',
    title: 'Walking every moderator form',
    body: 'A topic with a reply, for the merge and delete pages.',
  });
  const { post } = await writeApplied(
    h.services.writes,
    { kind: 'person', personId: mia.id, displayName: 'Mia Member' },
    acme,
    'post.create',
    { topic: made.topic.id, body: 'A reply a moderator may delete.' },
  );
  seeds = [
    '/',
    '/review',
    '/approvals',
    '/moderation',
    '/admin',
    `/t/${made.topic.slug}`,
    `/t/${made.topic.slug}/merge`,
    `/t/${made.topic.slug}/delete`,
    `/t/${made.topic.slug}/delete-post/${post.id}`,
    `/u/${mia.id}`,
    '/profile',
  ];
});

/** Signs the owner in at `prefix` (the path form's /c/acme, or nothing on the host form). */
async function owner(base: string, prefix: string): Promise<WebClient> {
  const client = new WebClient(base);
  await client.get(`${prefix}/signin`);
  const res = await client.post(`${prefix}/signin`, {
    email: 'olga@example.org',
    password: PASSWORD,
    next: `${prefix}/`,
  });
  assert.equal(res.status, 200, 'signed in');
  return client;
}

const attr = (tag: string, name: string) =>
  tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1]?.replace(/&amp;/g, '&');

/**
 * Walks the pages from the seeds (each local path under `prefix`), following the links WALKED
 * names; returns every form action met, with the page it was on, and the pages walked.
 */
async function walk(client: WebClient, prefix: string) {
  const queue = seeds.map((s) => prefix + (s === '/' && prefix ? '/' : s));
  const seen = new Set(queue);
  const actions: { page: string; action: string }[] = [];
  const walked: string[] = [];
  while (queue.length && walked.length < 120) {
    const path = queue.shift()!;
    let res = await client.get(path);
    // /u/<id> moves to /u/<handle>, in the same form.
    if (res.status === 302) {
      const to = res.headers.location!;
      assert.ok(to.startsWith(`${prefix}/u/`), `${path} moves to ${to}, in the same form`);
      res = await client.get(to);
    }
    assert.equal(
      res.status,
      200,
      `${path} answers: ${res.text.replace(/<[^>]+>/g, ' ').slice(-600)}`,
    );
    walked.push(path);
    assert.doesNotMatch(res.text, /&lt;(time|a|span)\b/, `${path} shows no markup as text`);
    for (const form of res.text.match(/<form\b[^>]*>/g) ?? []) {
      const method = attr(form, 'method') ?? 'get';
      actions.push({ page: path, action: attr(form, 'action') ?? `(none, ${method})` });
    }
    for (const a of res.text.match(/<a\b[^>]*>/g) ?? []) {
      const link = attr(a, 'href');
      if (!link || !link.startsWith(`${prefix}/`)) continue;
      const local = new URL(link, 'http://x').pathname.slice(prefix.length);
      const target = prefix + local + new URL(link, 'http://x').search;
      if (!WALKED.test(local) || seen.has(target) || /\/signout$/.test(local)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return { actions, walked };
}

test('on the path form every moderator and admin form posts inside /c/acme/', async () => {
  const client = await owner(`http://localhost:${h.port}`, '/c/acme');
  await client.get('/c/acme/admin/mail');
  await client.post('/c/acme/admin/mail/reset', { email: 'mia@example.org' });
  const mail = await client.get('/c/acme/admin/mail');
  assert.match(
    mail.text,
    /<td data-label="Queued"><time datetime="/,
    'the mail table shows its times',
  );
  assert.doesNotMatch(mail.text, /&lt;time/);
  const { actions, walked } = await walk(client, '/c/acme');
  assert.ok(walked.length >= 20, `walked ${walked.length} pages`);
  for (const must of ['/c/acme/admin/members', '/c/acme/admin/agents', '/c/acme/admin/settings'])
    assert.ok(walked.includes(must), `${must} was walked`);
  const outside = actions.filter((a) => !a.action.startsWith('/c/acme/'));
  assert.deepEqual(outside, [], 'forms posting outside the community');
  for (const kind of ['/merge', '/delete', '/delete-post/', '/admin/members', '/moderation/'])
    assert.ok(
      actions.some((a) => a.action.includes(kind)),
      `a form posting to …${kind} was checked`,
    );
});

test('on the host form every moderator and admin form stays on the host', async () => {
  const client = await owner(`http://${h.host('acme')}`, '');
  const { actions, walked } = await walk(client, '');
  assert.ok(walked.length >= 20, `walked ${walked.length} pages`);
  const outside = actions.filter((a) => !/^\/(?!c\/)/.test(a.action));
  assert.deepEqual(outside, [], 'forms posting off the host');
});
