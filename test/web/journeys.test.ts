// The web's real journeys in Debian's Chromium, each step screenshotted at desktop width and at
// 360 px and checked with axe-core: a person signs up, asks (a similar solved question is suggested
// while typing), an agent answers over MCP, the asker accepts it, search finds it solved; two
// moderators decide one queued agent write at the same moment (one wins, the other is told why); an
// admin mints an agent key that works over MCP until the admin revokes it; and a keyboard-only visit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
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

const system = systemActor('test');
const PASSWORD = 'correct horse battery';

if (chromiumAvailable('web journeys in Chromium')) {
  let h: TestHamlet;
  let browser: Browser;
  let acme: Community;
  let agentKey: string;
  const url = (path: string) => h.hostUrl('acme.localhost', path);

  async function tool(key: string, name: string, args: Record<string, unknown>) {
    const res = await rpc(
      url('/api/mcp'),
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      { authorization: `Bearer ${key}` },
    );
    return res.json().result as { isError: boolean; structuredContent: any };
  }

  async function member(
    email: string,
    name: string,
    role: 'owner' | 'admin' | 'moderator',
  ): Promise<string> {
    await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
    await h.services.accounts.addMember(system, acme, { email, role });
    return (await h.services.accounts.signIn({ email, password: PASSWORD })).token;
  }

  before(async () => {
    h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
    acme = (await h.store.communities.getBySlug('acme'))!;
    agentKey = (
      await h.services.agents.create(system, acme, { name: 'answer-bot', scopes: ['post:create'] })
    ).key;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  describe('web journeys', () => {
    test('a person signs up, asks, an agent answers over MCP, the asker accepts it, search finds it solved', async () => {
      const context = await contextFor(browser, h);
      const page = await context.newPage();
      await page.goto(url('/'));
      await checkAxe(page, 'community home');
      await shoot(page, 'ask', '01-home');

      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.getByLabel('Your name').fill('Robin');
      await page.getByLabel('E-mail address').fill('robin@example.org');
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      assert.match(
        await page.getByRole('alert').innerText(),
        /password: must be at least 10 characters/,
      );
      await checkAxe(page, 'sign-up form with errors');
      await shoot(page, 'ask', '02-signup-error');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      // Signing up signs in, and comes back to where the sign-up started.
      assert.match(
        await page.getByRole('status').innerText(),
        /Welcome, Robin: your account is open and you are signed in as robin@example\.org/,
      );

      await page.getByRole('link', { name: 'Ask a question' }).first().click();
      await page.getByLabel('Category').selectOption('support');
      await page
        .getByLabel('Title')
        .pressSequentially('How do I verify the hamlet-signature header of a webhook?', {
          delay: 5,
        });
      const similar = page.locator('#similar-live');
      await similar.getByRole('link', { name: 'Verifying the hamlet-signature header' }).waitFor();
      assert.match(
        await similar.innerText(),
        /Similar questions[\s\S]*Verifying the hamlet-signature header\s*Solved/,
      );
      await checkAxe(page, 'ask form');
      await shoot(page, 'ask', '03-similar-while-typing');
      await page
        .getByLabel('Your question')
        .fill(
          'My receiver gets the webhook but I am not sure how to check the signature with a timestamp. What is the exact rule?',
        );
      await page.getByLabel('Tags (optional)').fill('webhooks, security');
      await page.getByRole('button', { name: 'Post your question' }).click();
      await page.waitForURL(/\/t\/how-do-i-verify-the-hamlet-signature-header-of-a-webhook$/);
      assert.match(await page.getByRole('status').innerText(), /Your question was posted/);

      const topic = await h.store
        .community(acme.id)
        .topics.getBySlug('how-do-i-verify-the-hamlet-signature-header-of-a-webhook');
      const answer = await tool(agentKey, 'reply_to_topic', {
        topic: topic!.id,
        body: 'Compute HMAC-SHA256 over `<t>.<raw body>` with the secret, compare with v1, and reject timestamps older than five minutes.',
      });
      assert.equal(answer.isError, false, JSON.stringify(answer));

      await page.reload();
      const reply = page.getByRole('article', { name: 'Reply by answer-bot' });
      assert.match(
        await reply.innerText(),
        /posted by agent answer-bot on behalf of community acme/,
      );
      await reply.getByRole('button', { name: 'Accept this answer' }).click();
      assert.match(await page.getByRole('status').innerText(), /now the accepted solution/);
      assert.equal(
        await page.getByRole('article', { name: 'Accepted answer by answer-bot' }).isVisible(),
        true,
      );
      await checkAxe(page, 'topic page (signed in, accepted answer)');
      await shoot(page, 'ask', '04-accepted');

      await page.goto(url('/search?q=verify+signature+timestamp&solved_only=on'));
      // The results (the header's bell menu lists notifications about the same topic).
      const first = page
        .locator('main')
        .getByRole('listitem')
        .filter({ hasText: 'How do I verify the hamlet-signature header of a webhook?' });
      assert.match(await first.innerText(), /Solved[\s\S]*accepted answer by answer-bot\s*Agent/);
      assert.ok((await first.locator('mark').count()) > 0, 'matched words are highlighted');
      await checkAxe(page, 'search results');
      await shoot(page, 'ask', '05-search-solved');
      // Searching again from the page's own form with the filter unticked: the panel stays closed
      // and the first result is on the first screen.
      const panel = page.locator('main details').first();
      if ((await panel.getAttribute('open')) === null)
        await page.locator('summary', { hasText: 'Filters' }).click();
      await page.getByLabel('Only solved topics').uncheck();
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL((u) => !u.searchParams.has('solved_only'));
      assert.equal(
        await page.locator('main details').first().getAttribute('open'),
        null,
        'the filter panel is closed after a search',
      );
      const top = await page
        .getByRole('listitem')
        .filter({ has: page.locator('.snippet') })
        .first()
        .boundingBox();
      assert.ok(top && top.y < 800, `the first result is on the first screen (y = ${top?.y})`);
      await context.close();
      writeReport('ask');
    });

    test('two moderators decide one queued agent write at the same moment: one wins, the other sees why', async () => {
      await h.services.approvals.setPolicy(system, acme, { kind: 'post.create', mode: 'approval' });
      const queued = await tool(agentKey, 'reply_to_topic', {
        topic: 'verifying-the-hamlet-signature-header',
        body: 'Also: compare the signatures in **constant time**.',
      });
      assert.equal(queued.structuredContent.status, 'pending_approval');
      const [ana, ben] = [
        await member('ana@example.org', 'Ana', 'moderator'),
        await member('ben@example.org', 'Ben', 'moderator'),
      ];
      const pages: Page[] = [];
      for (const token of [ana, ben]) {
        const context = await contextFor(browser, h, 'acme.localhost', token);
        const page = await context.newPage();
        await page.goto(url('/approvals'));
        pages.push(page);
      }
      const [pa, pb] = pages as [Page, Page];
      const card = (p: Page) => p.getByRole('region', { name: 'post.create by answer-bot' });
      assert.match(
        await card(pa).innerText(),
        /Reply to verifying-the-hamlet-signature-header[\s\S]*constant time/,
      );
      assert.equal(
        await card(pa).locator('strong').innerText(),
        'constant time',
        'the queued reply is rendered as it will appear',
      );
      await checkAxe(pa, 'approval queue');
      await shoot(pa, 'moderate', '01-queue');
      await card(pb).getByLabel('Reason for rejecting').fill('Duplicate of the accepted answer.');
      await Promise.all([
        card(pa).getByRole('button', { name: 'Approve and publish' }).click(),
        card(pb).getByRole('button', { name: 'Reject' }).click(),
      ]);
      await Promise.all([pa.waitForLoadState(), pb.waitForLoadState()]);
      const texts = await Promise.all(
        [pa, pb].map((p) => p.locator('main .notice').first().innerText()),
      );
      const winners = texts.filter((t) =>
        /^(Approved: it is published now|Rejected: the submitter sees your reason)/.test(t),
      );
      const losers = texts.filter((t) =>
        /This approval was already decided \(status: (applied|rejected) by (Ana|Ben)\)\. Nothing was changed\./.test(
          t,
        ),
      );
      assert.deepEqual([winners.length, losers.length], [1, 1], texts.join(' | '));
      const loser = /already decided/.test(texts[0]!) ? pa : pb;
      await checkAxe(loser, 'approval queue after a lost decision');
      await shoot(loser, 'moderate', '02-the-other-was-first');
      await shoot(loser === pa ? pb : pa, 'moderate', '03-decided');
      await h.services.approvals.setPolicy(system, acme, { kind: 'post.create', mode: 'auto' });
      writeReport('moderate');
    });

    test('an admin mints an agent key, it works over MCP, the admin revokes it and it stops working', async () => {
      await member('owner@example.org', 'Olive', 'owner');
      const context = await contextFor(browser, h);
      const page = await context.newPage();
      await page.goto(url('/signin'));
      await page.getByLabel('E-mail address').fill('owner@example.org');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Admin' }).click();
      await checkAxe(page, 'admin overview');
      await page.getByRole('link', { name: 'Agents and keys' }).first().click();
      await page.getByLabel('Name', { exact: true }).fill('triage-bot');
      await page.getByRole('checkbox', { name: 'topic:create' }).check();
      await page.getByRole('button', { name: 'Create agent' }).click();
      const key = (await page.locator('#new-key').innerText()).trim();
      assert.match(key, /^hmlt_live_[0-9A-Za-z]{32,}$/);
      await checkAxe(page, 'agents and keys');
      await shoot(page, 'admin', '01-key-shown-once');

      const works = await tool(key, 'list_categories', {});
      assert.equal(works.isError, false);
      await page.goto(url('/admin/agents'));
      assert.equal(await page.locator('#new-key').count(), 0, 'the key is never shown again');
      const section = page.getByRole('region', { name: 'triage-bot' });
      assert.match(await section.innerText(), /live/);
      await section
        .getByRole('button', { name: new RegExp(`Revoke key ${key.slice(0, 14)}`) })
        .click();
      // Revoking asks first, on a page of its own (no JavaScript needed).
      assert.match(await page.locator('main').innerText(), /Revoke this key\?/);
      await checkAxe(page, 'confirm a revocation');
      await page.getByRole('button', { name: 'Revoke the key' }).click();
      assert.match(await page.getByRole('status').innerText(), /stopped working at once/);
      await shoot(page, 'admin', '02-revoked');
      const refused = await tool(key, 'list_categories', {});
      assert.equal(refused.isError, true);
      assert.match(refused.structuredContent.error, /was revoked on/);

      for (const [path, type] of [
        ['/admin/members', 'members'],
        ['/admin/settings', 'settings'],
        ['/account', 'account'],
      ] as const) {
        await page.goto(url(path));
        await checkAxe(page, type);
        await shoot(page, 'admin', `03-${type}`);
      }
      // Removing a member (here: yourself) asks first, on a page of its own; Cancel changes nothing.
      await page.goto(url('/admin/members'));
      await page.getByRole('button', { name: 'Remove Olive' }).click();
      assert.match(await page.locator('main').innerText(), /Remove yourself from "acme"\?/);
      await checkAxe(page, 'confirm a removal');
      await shoot(page, 'admin', '04-confirm-removal');
      await page.getByRole('link', { name: 'Cancel' }).click();
      assert.match(await page.locator('main').innerText(), /owner@example\.org/);
      await context.close();
      writeReport('admin');
    });

    test('every other page type passes axe and reads at 360 px', async () => {
      const token = (
        await h.services.accounts.signIn({ email: 'owner@example.org', password: PASSWORD })
      ).token;
      const context = await contextFor(browser, h, 'acme.localhost', token);
      const page = await context.newPage();
      const helper = (await h.store.community(acme.id).agents.getByName('acme-helper'))!;
      const own = (await h.store
        .community(acme.id)
        .topics.getBySlug('how-do-i-verify-the-hamlet-signature-header-of-a-webhook'))!;
      const question = (await h.store.community(acme.id).posts.getFirst(own.id))!;
      const pages: Array<[string, string, string]> = [
        [h.hostUrl('localhost', '/'), 'network directory', /Hamlet communities/.source],
        [
          h.hostUrl('localhost', '/search?q=signature'),
          'network search',
          /Verifying the hamlet-signature header/.source,
        ],
        [h.hostUrl('localhost', '/signin'), 'sign-in form', /Sign in/.source],
        [url('/categories/support'), 'category', /Support/.source],
        [url('/latest?filter=solved'), 'all topics, solved', /All topics/.source],
        [url('/t/getting-started'), 'article', /Knowledge-base article/.source],
        [url('/t/getting-started/revisions'), 'article history', /Revision 1/.source],
        [url('/t/getting-started/revise'), 'revise an article', /Revise/.source],
        [url(`/t/${own.slug}/edit/${question.id}`), 'edit a post', /Edit your question/.source],
        [url(`/u/${helper.id}`), 'agent profile', /posted by agent acme-helper/.source],
        [url('/admin/webhooks'), 'webhooks (placeholder)', /Webhooks/.source],
        [url('/t/no-such-topic'), 'not found', /Not found/.source],
      ];
      for (const [address, type, expect] of pages) {
        await page.goto(address);
        assert.match(await page.locator('main').innerText(), new RegExp(expect), type);
        await checkAxe(page, type);
        await shoot(page, 'pages', type.replace(/[^a-z0-9]+/gi, '-').toLowerCase());
      }
      await context.close();
      writeReport('pages');
    });

    test('keyboard only: skip link, sign in, reach a topic and reply without a mouse', async () => {
      const context = await contextFor(browser, h);
      const page = await context.newPage();
      await page.goto(url('/signin'));
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        'Skip to content',
      );
      await page.keyboard.press('Enter');
      const TABS = 200;
      const focusTo = async (label: string) => {
        // A topic page carries each post's controls (reply, quote, flag) before the composer.
        for (let i = 0; i < TABS; i++) {
          await page.keyboard.press('Tab');
          const name = await page.evaluate(
            () =>
              (document.activeElement as HTMLElement | null)?.getAttribute('name') ??
              document.activeElement?.textContent ??
              '',
          );
          if (name === label) return;
        }
        assert.fail(`no focusable "${label}" within ${TABS} tabs`);
      };
      await focusTo('email');
      await page.keyboard.type('ana@example.org');
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(url('/'));
      await focusTo('Verifying the hamlet-signature header');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/t\/verifying-the-hamlet-signature-header$/);
      await focusTo('body');
      await page.keyboard.type('Thanks, this worked for me.');
      // Past the optional "Where did you run this?" field to the first action, "Post reply".
      await focusTo('action');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Post reply');
      await page.keyboard.press('Enter');
      await page.waitForURL(/#post-/);
      assert.match(await page.getByRole('status').innerText(), /Your reply was posted/);
      await checkAxe(page, 'topic page');
      await shoot(page, 'keyboard', '01-replied');
      await context.close();
      writeReport('keyboard');
    });
  });
}
