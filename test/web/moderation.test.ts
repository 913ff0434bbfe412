// Moderators on the web: the topic page's controls as plain forms (no JavaScript), closing and
// closing as a duplicate shown to readers (linked both ways), deleting a topic or a reply through a
// confirmation page (GET asks with [Delete] [Cancel] and a reason, POST does it), the deleted
// content gone for visitors and shown to moderators with who and why, the moderation log page; and
// in Chromium, the topic page's moderator controls and the new pages with no serious axe finding.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { raw } from '../mcp/http-client.ts';
import { checkAxe, chromiumAvailable, contextFor, launch } from './browser-kit.ts';
import { visible, WebClient } from './client.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
let h: TestHamlet;
let acme: Community;
const base = () => `http://acme.localhost:${h.port}`;

async function person(email: string, role: 'moderator' | 'member') {
  await h.services.accounts.createUser(system, {
    email,
    password: PASSWORD,
    name: email.split('@')[0],
  });
  await h.services.accounts.addMember(system, acme, { email, role });
  const client = new WebClient(base());
  await client.get('/signin');
  await client.post('/signin', { email, password: PASSWORD, next: '/' });
  return client;
}

async function topic(title: string) {
  const made = await writeApplied(h.services.writes, system, acme, 'topic.create', {
    category: 'support',
    title,
    body: 'What we tried, what happened, what we expected.',
  });
  const { post: reply } = await writeApplied(h.services.writes, system, acme, 'post.create', {
    topic: made.topic.id,
    body: 'A reply someone found rude.',
  });
  return { slug: made.topic.slug, id: made.topic.id, reply: reply.id };
}

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(() => h.stop());

test('a moderator closes a topic as a duplicate: readers see both links and no reply form', async () => {
  const mod = await person('mona@example.org', 'moderator');
  const original = await topic('Exporter loses the last batch');
  const dup = await topic('Last batch missing from export');
  const page = await mod.get(`/t/${dup.slug}`);
  assert.match(visible(page.text), /Moderate/);
  const done = await mod.post(`/t/${dup.slug}/moderate/duplicate`, { of: original.slug });
  assert.match(visible(done.text), /Closed as a duplicate\./);
  const asVisitor = await raw(`${base()}/t/${dup.slug}`);
  assert.match(visible(asVisitor.text), /Closed as a duplicate of Exporter loses the last batch/);
  assert.match(asVisitor.text, new RegExp(`href="/t/${original.slug}"`));
  assert.doesNotMatch(visible(asVisitor.text), /Sign in to reply/);
  const originalPage = await raw(`${base()}/t/${original.slug}`);
  assert.match(visible(originalPage.text), /Also asked as: Last batch missing from export/);
  const member = await person('mel@example.org', 'member');
  assert.doesNotMatch(visible((await member.get(`/t/${original.slug}`)).text), /Moderate/);
});

test('deleting a topic asks for confirmation without JavaScript; visitors lose it, moderators see who and why', async () => {
  const mod = await person('moe@example.org', 'moderator');
  const t = await topic('Connector drops frames at night');
  const ask = await mod.get(`/t/${t.slug}/delete`);
  assert.equal(ask.status, 200);
  assert.match(visible(ask.text), /Delete this topic\?/);
  assert.match(ask.text, /<button type="submit" class="danger">Delete<\/button>/);
  assert.match(ask.text, new RegExp(`class="button secondary" href="/t/${t.slug}">Cancel`));
  assert.equal((await raw(`${base()}/t/${t.slug}`)).status, 200, 'GET changed nothing');
  const missing = await mod.post(`/t/${t.slug}/delete`, { reason: '' });
  assert.notEqual(missing.status, 200);
  await mod.get(`/t/${t.slug}/delete`);
  const done = await mod.post(`/t/${t.slug}/delete`, { reason: 'Spam links' });
  assert.match(visible(done.text), /The topic is deleted\./);
  assert.match(visible(done.text), /Deleted by moe: Spam links/);
  assert.equal((await raw(`${base()}/t/${t.slug}`)).status, 404);
  const log = await mod.get('/moderation');
  assert.equal(log.status, 200);
  assert.match(visible(log.text), /moe\s+delete\s+Connector drops frames at night\s+Spam links/);
  await mod.post(`/t/${t.slug}/moderate/restore`, {});
  assert.equal((await raw(`${base()}/t/${t.slug}`)).status, 200);
});

test('deleting a reply goes through its confirmation page; it is hidden from visitors and restorable', async () => {
  const mod = await person('max@example.org', 'moderator');
  const t = await topic('Scheduler runs twice after restart');
  const ask = await mod.get(`/t/${t.slug}/delete-post/${t.reply}`);
  assert.match(visible(ask.text), /Delete this reply\?/);
  const done = await mod.post(`/t/${t.slug}/delete-post/${t.reply}`, { reason: 'Rude' });
  assert.match(visible(done.text), /Deleted by max: Rude/);
  assert.doesNotMatch(visible((await raw(`${base()}/t/${t.slug}`)).text), /someone found rude/);
  await mod.post(`/t/${t.slug}/restore-post/${t.reply}`, {});
  assert.match(visible((await raw(`${base()}/t/${t.slug}`)).text), /someone found rude/);
});

describe('in Chromium', () => {
  if (!chromiumAvailable('moderation pages in Chromium')) return;
  let browser: Browser;
  before(async () => {
    browser = await launch();
  });
  after(() => browser?.close());

  test("the topic page's moderator controls work by click, and the new pages pass axe", async () => {
    await h.services.accounts.createUser(system, {
      email: 'mira@example.org',
      password: PASSWORD,
      name: 'Mira',
    });
    await h.services.accounts.addMember(system, acme, {
      email: 'mira@example.org',
      role: 'moderator',
    });
    const token = (
      await h.services.accounts.signIn({ email: 'mira@example.org', password: PASSWORD })
    ).token;
    const t = await topic('Browser check: webhook retries pile up');
    const context = await contextFor(browser, h, 'acme.localhost', token);
    const page = await context.newPage();
    await page.goto(`${base()}/t/${t.slug}`);
    await checkAxe(page, 'topic page with moderator controls');
    const controls = page.getByRole('region', { name: 'Moderate' });
    await controls.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForLoadState();
    assert.match(await page.locator('main').innerText(), /The topic is closed\./);
    await page
      .getByRole('region', { name: 'Moderate' })
      .getByRole('button', { name: 'Pin' })
      .click();
    await page.waitForLoadState();
    await page.getByRole('link', { name: 'Delete this topic…' }).click();
    await checkAxe(page, 'delete confirmation');
    await page.getByLabel('Reason').fill('Test clean-up');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForLoadState();
    assert.match(await page.locator('main').innerText(), /Deleted by Mira: Test clean-up/);
    await page.goto(`${base()}/moderation`);
    await checkAxe(page, 'moderation log');
    assert.match(await page.locator('table').innerText(), /Mira\s+delete/);
    await context.close();
  });
});
