// Bookmarks and edit history in Debian's Chromium: a member presses "Bookmark" on a reply (the
// button then reads pressed), follows the header's link to /bookmarks and finds it there; the
// edited question's "edited" link opens its history. Each new page (the topic with its toggles,
// /bookmarks, a post's history, an article's revisions) has no axe-core violation at all, colour
// contrast included, in the light and the dark scheme, and nothing wider than a 320 px screen.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { axeFindings, chromiumAvailable, launch, shoot } from './browser-kit.ts';
import { postEdit } from '../../src/domain/writes/post-edit.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
const EMAIL = 'reader@example.org';

if (chromiumAvailable('bookmarks and history in Chromium')) {
  let h: TestHamlet;
  let browser: Browser;
  let acme: Community;
  let token: string;
  let slug: string;
  let question: string;
  const url = (path: string) => h.hostUrl('acme.localhost', path);

  before(async () => {
    h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
    acme = (await h.store.communities.getBySlug('acme'))!;
    await h.services.accounts.createUser(system, { email: EMAIL, password: PASSWORD, name: 'Rea' });
    await h.services.accounts.addMember(system, acme, { email: EMAIL, role: 'member' });
    token = (await h.services.accounts.signIn({ email: EMAIL, password: PASSWORD })).token;
    const rea = (await h.services.accounts.resolveWebSession(token))!;
    const asked = await h.services.writes.execute(rea, acme, 'topic.create', {
      category: 'support',
      title: 'How do I keep a reply to read later?',
      body: 'I read a good answer and want to find it again next week.',
    });
    assert.equal(asked.status, 'applied');
    if (asked.status !== 'applied') return;
    slug = asked.result.topic!.slug;
    question = asked.result.post!.id;
    await h.services.writes.execute(system, acme, 'post.create', {
      topic: slug,
      body: 'Press **Bookmark** under it; your bookmarks are in the header.',
    });
    await h.services.writes.runner.run(postEdit, rea, acme, {
      post: question,
      title: 'How do I keep a good reply to read later?',
      body: 'I read a good answer and want to find it again next month, on another computer.',
    });
    for (const body of ['Install Hamlet with npm.', 'Install Hamlet with npm, then start it.'])
      await writeApplied(h.services.writes, system, acme, 'article.write', {
        category: 'docs',
        slug: 'reading-article',
        title: 'Installing Hamlet',
        body,
      });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  async function signedInPage(scheme: 'light' | 'dark') {
    const context = await browser.newContext({
      colorScheme: scheme,
      viewport: { width: 1280, height: 900 },
    });
    await context.addCookies([
      { name: 'hamlet_session', value: token, domain: 'acme.localhost', path: '/' },
    ]);
    return { context, page: await context.newPage() };
  }

  describe('bookmarks and history', () => {
    test('bookmark a reply, find it on /bookmarks, open the edited question’s history', async () => {
      const { context, page } = await signedInPage('light');
      await page.goto(url(`/t/${slug}`));
      const reply = page.getByRole('article', { name: /^Reply by/ });
      const toggle = reply.getByRole('button', { name: /^Bookmark this reply/ });
      assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
      await toggle.click();
      await page.waitForLoadState();
      assert.match(await page.locator('main .notice').first().innerText(), /in your bookmarks/);
      const pressed = page
        .getByRole('article', { name: /^Reply by/ })
        .getByRole('button', { name: /^Bookmark this reply/ });
      assert.equal(await pressed.getAttribute('aria-pressed'), 'true');
      await shoot(page, 'reading', '01-topic-bookmarked');

      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Bookmarks' })
        .click();
      await page.waitForLoadState();
      assert.equal(new URL(page.url()).pathname, '/bookmarks');
      const items = page.locator('ul.bookmarks > li');
      assert.equal(await items.count(), 1);
      assert.match(await items.first().innerText(), /Press Bookmark under it/);
      await shoot(page, 'reading', '02-bookmarks');

      await page.goto(url(`/t/${slug}`));
      await page
        .getByRole('article', { name: /^Question by/ })
        .getByRole('link', { name: /^edited/ })
        .click();
      await page.waitForLoadState();
      assert.equal(new URL(page.url()).pathname, `/t/${slug}/history/${question}`);
      assert.equal(await page.locator('h2[id^="v-"]').count(), 2);
      assert.match(await page.locator('.version del').first().innerText(), /week/);
      assert.match(await page.locator('.version ins').first().innerText(), /good/);
      await shoot(page, 'reading', '03-history');
      await context.close();
    });

    for (const scheme of ['light', 'dark'] as const)
      test(`the new pages in the ${scheme} scheme: no axe violation, no sideways scrolling`, async () => {
        const { context, page } = await signedInPage(scheme);
        const found: string[] = [];
        for (const path of [
          `/t/${slug}`,
          '/bookmarks',
          `/t/${slug}/history/${question}`,
          '/t/reading-article/revisions',
        ]) {
          const res = await page.goto(url(path));
          assert.equal(res?.status(), 200, path);
          // The versions' full texts are folded: open them so axe checks them too.
          await page.evaluate(() =>
            document.querySelectorAll('details').forEach((d) => (d.open = true)),
          );
          for (const finding of await axeFindings(page)) found.push(`${path}: ${finding}`);
          await page.setViewportSize({ width: 320, height: 700 });
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          assert.ok(overflow <= 0, `${path} (${scheme}): ${overflow} px wider than 320 px`);
          await page.setViewportSize({ width: 1280, height: 900 });
        }
        await context.close();
        assert.deepEqual(found, [], `${scheme}: axe violations`);
      });
  });
}
