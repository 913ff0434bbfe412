// The moderation journey in Debian's Chromium, each step screenshotted and checked with axe-core:
// a member flags an agent's reply on the topic page, a moderator sees it in the review queue with
// the reason and the note, hides it, sees the hidden-post notice on the topic, and the member sees
// the outcome: the reply gone from the page and a notification saying a moderator hid it; then the
// moderator closes the topic as a duplicate and the member sees the link to the original (and the
// original's link back) and no reply form.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { rpc } from '../mcp/http-client.ts';
import {
  checkAxe,
  chromiumAvailable,
  contextFor,
  launch,
  shoot,
  writeReport,
} from './browser-kit.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
const TOPIC = 'verifying-the-hamlet-signature-header';
const SPAM = 'Cheap signature verification pills, no questions asked.';

if (chromiumAvailable('moderation journey in Chromium')) {
  let h: TestHamlet;
  let browser: Browser;
  let acme: Community;
  const url = (path: string) => h.hostUrl('acme.localhost', path);

  async function signedIn(email: string, name: string, role: 'member' | 'moderator') {
    await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
    await h.services.accounts.addMember(system, acme, { email, role });
    const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
    return (await contextFor(browser, h, 'acme.localhost', token)).newPage();
  }

  before(async () => {
    h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
    acme = (await h.store.communities.getBySlug('acme'))!;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  describe('moderation journey', () => {
    test('a member flags a post, a moderator hides it and closes the topic as a duplicate, the member sees the outcome', async () => {
      const { key } = await h.services.agents.create(system, acme, {
        name: 'pill-bot',
        scopes: ['post:create'],
      });
      const replied = await rpc(
        url('/api/mcp'),
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'reply_to_topic', arguments: { topic: TOPIC, body: SPAM } },
        },
        { authorization: `Bearer ${key}` },
      );
      assert.equal(replied.json().result.structuredContent.status, 'applied');

      const mia = await signedIn('mia@example.org', 'Mia', 'member');
      await mia.goto(url(`/t/${TOPIC}`));
      const reply = mia.getByRole('article', { name: /Reply by pill-bot/ });
      await reply.locator('summary', { hasText: 'Flag' }).click();
      await reply.getByLabel('What is wrong with it?').selectOption('spam');
      await reply.getByLabel('Note for the moderators').fill('Selling pills, not answering.');
      await checkAxe(mia, 'topic with the flag form');
      await shoot(mia, 'flag', '01-flag-form');
      await reply.getByRole('button', { name: 'Send flag' }).click();
      await mia.waitForLoadState();
      assert.match(await mia.locator('main .notice').first().innerText(), /^Flagged as spam/);

      const max = await signedIn('max@example.org', 'Max', 'moderator');
      await max.goto(url('/review'));
      const card = max.getByRole('region', { name: 'Flagged post by pill-bot' });
      const shown = await card.innerText();
      assert.match(
        shown,
        /Why it is here: flagged: spam; “Selling pills, not answering\.” \(Mia\)/,
      );
      assert.ok(shown.includes(SPAM));
      await checkAxe(max, 'review queue');
      await shoot(max, 'flag', '02-review-queue');
      await card.getByLabel('Note to the author').fill('Spam is removed here.');
      await card.getByRole('button', { name: 'Hide the post' }).click();
      await max.waitForLoadState();
      assert.match(
        await max.locator('main .notice').first().innerText(),
        /hidden from everyone but moderators/,
      );
      assert.equal(await max.getByRole('region', { name: 'Flagged post by pill-bot' }).count(), 0);

      await max.goto(url(`/t/${TOPIC}`));
      const notice = max.getByRole('article', { name: /Reply by pill-bot/ }).getByRole('note');
      assert.match(await notice.innerText(), /Hidden from readers by Max.*Spam is removed here/);
      await checkAxe(max, 'topic with a hidden post (moderator)');
      await shoot(max, 'flag', '03-hidden-for-moderators');

      await mia.goto(url(`/t/${TOPIC}`));
      assert.ok(!(await mia.locator('main').innerText()).includes(SPAM), 'gone for the member');
      await mia.goto(url('/notifications'));
      assert.match(await mia.locator('main').innerText(), /Max hid the post you flagged in/);
      await checkAxe(mia, 'notifications after a flag');
      await shoot(mia, 'flag', '04-member-told');

      // The moderator closes the topic as a duplicate of an older one, from the topic page.
      const original = await writeApplied(h.services.writes, system, acme, 'topic.create', {
        category: 'support',
        title: 'How do I check the signature of a webhook delivery?',
        body: 'Which header carries it, and what is signed?',
      });
      await max.goto(url(`/t/${TOPIC}`));
      await max
        .getByLabel('Duplicate of (the original topic, slug or id)')
        .fill(original.topic.slug);
      await checkAxe(max, 'topic with the moderator controls');
      await max.getByRole('button', { name: 'Close as duplicate' }).click();
      await max.waitForLoadState();
      assert.match(
        await max.locator('main .notice').first().innerText(),
        /Closed as a duplicate\./,
      );
      await shoot(max, 'flag', '05-closed-as-duplicate');

      // The member sees the outcome: the link to the original, no reply form, and the original
      // links back ("also asked as").
      await mia.goto(url(`/t/${TOPIC}`));
      const main = mia.locator('main');
      assert.match(await main.innerText(), /Closed as a duplicate of How do I check the signature/);
      assert.equal(await mia.getByRole('button', { name: 'Post reply' }).count(), 0);
      await checkAxe(mia, 'topic closed as a duplicate (member)');
      await shoot(mia, 'flag', '06-member-sees-duplicate');
      await main
        .getByRole('link', { name: 'How do I check the signature of a webhook delivery?' })
        .click();
      await mia.waitForLoadState();
      assert.match(await mia.locator('main').innerText(), /Also asked as: /);
      writeReport('flag');
    });
  });
}
