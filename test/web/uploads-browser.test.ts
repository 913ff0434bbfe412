// Uploads in Chromium: a member chooses an image in the reply composer, presses Attach (the page
// comes back with the image's Markdown in the text), posts, and the reply shows the image at its
// size, loaded from the community's own /uploads/ path under the page's strict CSP; an HTML page
// named ".png" is refused with the reason. axe finds nothing on the composer with its file input.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { png } from '../helpers/png.ts';
import { axeFindings, chromiumAvailable, contextFor, launch, shoot } from './browser-kit.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');

if (chromiumAvailable('uploads in Chromium')) {
  let h: TestHamlet;
  let browser: Browser;
  let acme: Community;

  before(async () => {
    h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
    acme = (await h.store.communities.getBySlug('acme'))!;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  test('an attached image shows in the reply with its size; a disguised file is refused', async () => {
    const email = 'painter@example.org';
    const person = await h.services.accounts.createUser(system, {
      email,
      password: 'correct horse battery',
      name: 'Pat Painter',
    });
    await h.services.accounts.addMember(system, acme, { email, role: 'member' });
    const { token } = await h.services.accounts.createWebSession(person.id);
    const page = await (await contextFor(browser, h, 'acme.localhost', token)).newPage();
    const made = await writeApplied(h.services.writes, system, acme, 'topic.create', {
      category: 'support',
      title: 'Which colour should the logo be?',
      body: 'Show me what you mean.',
    });
    await page.goto(h.hostUrl('acme.localhost', `/t/${made.topic.slug}`));
    assert.deepEqual(
      await axeFindings(page),
      [],
      'axe finds nothing on the composer with its file input',
    );

    const reply = page.getByLabel('Reply', { exact: true });
    await reply.fill('This blue:');
    const input = page.getByLabel('Attach a file (optional)');
    await input.setInputFiles({
      name: 'logo blue.png',
      mimeType: 'image/png',
      buffer: Buffer.from(png(80, 60)),
    });
    await page.getByRole('button', { name: 'Attach', exact: true }).click();
    await page.waitForLoadState();
    assert.match(await page.locator('.notice').innerText(), /"logo-blue\.png" is attached/);
    assert.match(
      await reply.inputValue(),
      /^This blue:\n\n!\[logo-blue\]\(http:\/\/acme\.localhost:\d+\/uploads\/[0-9a-f-]{36}\/logo-blue\.png\)\n$/,
    );
    await shoot(page, 'uploads', 'attached');
    await page.getByRole('button', { name: 'Post reply' }).click();
    await page.waitForLoadState();
    const image = page.locator('main .post-body img[alt="logo-blue"]');
    assert.equal(await image.count(), 1, 'the reply shows the image');
    assert.deepEqual(
      await image.evaluate((el: HTMLImageElement) => ({
        width: el.getAttribute('width'),
        height: el.getAttribute('height'),
        loaded: el.complete && el.naturalWidth,
      })),
      { width: '80', height: '60', loaded: 80 },
      'at its size, and loaded (same origin, under the strict CSP)',
    );
    await shoot(page, 'uploads', 'posted');

    await page.getByLabel('Attach a file (optional)').setInputFiles({
      name: 'cat.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<html><body><script>alert(1)</script></body></html>'),
    });
    await page.getByRole('button', { name: 'Attach', exact: true }).click();
    await page.waitForLoadState();
    assert.match(
      await page.locator('.notice').innerText(),
      /"cat\.png" is named as a PNG image, but its content is HTML or other markup: the file is refused/,
    );
    assert.equal(await page.locator('main .post-body img').count(), 1, 'nothing more was posted');
  });
}
