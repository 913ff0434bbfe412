// The one composer in Chromium on the path form (/c/acme/…): signing up signs in; /ask keeps the
// question as a server-side draft while one types, so a reload brings it back; Preview renders it;
// an image dropped on the text is uploaded and its Markdown inserted where the cursor is; posting
// clears the draft; an in-page link to a post lands below the sticky header.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { png } from '../helpers/png.ts';
import { checkAxe, chromiumAvailable, contextFor, launch, shoot } from './browser-kit.ts';

const PASSWORD = 'correct horse battery';

if (chromiumAvailable('the composer in Chromium')) {
  let h: TestHamlet;
  let browser: Browser;

  before(async () => {
    h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  test('on the path form: sign up, /ask keeps the question across a reload, previews it, takes a dropped image, posts', async () => {
    const url = (path: string) => h.hostUrl('localhost', `/c/acme${path}`);
    const page = await (await contextFor(browser, h)).newPage();
    await page.goto(url('/signup'));
    await page.getByLabel('Your name').fill('Pat Composer');
    await page.getByLabel('E-mail address').fill('pat@example.org');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForLoadState();
    assert.match(await page.getByRole('status').first().innerText(), /Welcome, Pat Composer/);
    assert.equal(new URL(page.url()).pathname, '/c/acme');
    const acme = (await h.store.communities.getBySlug('acme'))!;
    await h.services.accounts.addMember(systemActor('test'), acme, {
      email: 'pat@example.org',
      role: 'member',
    });

    await page.goto(url('/ask'));
    const title = page.getByLabel('Title');
    const body = page.getByLabel('Your question');
    await title.fill('Exports stop after a thousand rows');
    await body.click();
    await body.pressSequentially('The export **stops** at row 1000.');
    await page.locator('.draft-status', { hasText: 'Draft saved.' }).waitFor({ timeout: 10_000 });
    await page.reload();
    assert.equal(await title.inputValue(), 'Exports stop after a thousand rows');
    assert.equal(await body.inputValue(), 'The export **stops** at row 1000.');
    assert.match(await page.locator('main .notice').first().innerText(), /Your draft .* is back/);

    // An image dropped on the text: uploaded, its Markdown where the cursor was.
    await body.press('End');
    await body.press('Enter');
    const dropped = await page.evaluateHandle(
      (bytes) => {
        const d = new DataTransfer();
        d.items.add(new File([new Uint8Array(bytes)], 'rows.png', { type: 'image/png' }));
        return d;
      },
      [...png(40, 30)],
    );
    await body.dispatchEvent('drop', { dataTransfer: dropped });
    await page.locator('.draft-status', { hasText: 'is attached' }).waitFor({ timeout: 10_000 });
    assert.match(
      await body.inputValue(),
      /^The export \*\*stops\*\* at row 1000\.\n!\[rows\]\(http:\/\/acme\.localhost:\d+\/uploads\/[0-9a-f-]{36}\/rows\.png\)\n$/,
    );

    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForLoadState();
    const preview = page.getByRole('region', { name: 'Preview' });
    assert.equal(await preview.locator('strong', { hasText: 'stops' }).count(), 1);
    assert.equal(await preview.locator('img[alt=rows]').count(), 1, 'the uploaded image shows');
    await checkAxe(page, 'ask with a preview');
    await shoot(page, 'compose', 'ask-preview');

    await page.getByRole('button', { name: 'Post your question' }).click();
    await page.waitForLoadState();
    assert.match(new URL(page.url()).pathname, /^\/c\/acme\/t\/exports-stop-after-a-thousand-rows/);
    assert.match(
      await page.locator('main .notice').first().innerText(),
      /Your question was posted/,
    );
    await page.goto(url('/ask'));
    assert.equal(await body.inputValue(), '', 'posting dropped the draft');
    assert.equal(await title.inputValue(), '');
  });

  test('a link to a post lands below the sticky header', async () => {
    const context = await contextFor(browser, h);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 500 });
    const topic = url('/t/verifying-the-hamlet-signature-header');
    await page.goto(topic);
    const ids = await page
      .locator('main article[id^=post-]')
      .evaluateAll((a) => a.map((e) => e.id));
    const last = ids[ids.length - 1]!;
    await page.goto(`${topic}#${last}`);
    const { top, header, scrolled } = await page.evaluate(
      (id) => ({
        top: document.getElementById(id)!.getBoundingClientRect().top,
        header: document.querySelector('header')!.getBoundingClientRect().bottom,
        scrolled: window.scrollY,
      }),
      last,
    );
    assert.ok(scrolled > 0, 'the page scrolled to the post');
    assert.ok(
      top >= header,
      `the post starts at ${top} px, under the header ending at ${header} px`,
    );
    await context.close();

    function url(path: string) {
      return h.hostUrl('localhost', `/c/acme${path}`);
    }
  });
}
