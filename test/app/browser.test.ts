// The web pages in a real headless Chromium (Debian's chromium through playwright-core): a visitor
// opens a topic URL an agent gave them, sees the accepted answer, goes home and back by the links.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { startTestHamlet, type TestHamlet } from './helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);

if (!available) {
  if (process.env.CI === 'true')
    test('web pages in Chromium', () =>
      assert.fail(`CI=true but ${CHROMIUM} is missing (apt-get install chromium)`));
  else test('web pages in Chromium', { skip: `${CHROMIUM} is not installed` }, () => {});
} else {
  let h: TestHamlet;
  let browser: Browser;
  before(async () => {
    h = await startTestHamlet({}, { demo: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  test('a topic page shows its accepted answer; the links lead home and back', async () => {
    const page = await browser.newPage();
    await page.goto(h.hostUrl('acme.localhost', '/t/verifying-the-hamlet-signature-header'));
    assert.equal(await page.title(), 'Verifying the hamlet-signature header · Acme · Hamlet');
    const answer = page.getByRole('article', { name: 'Accepted answer by acme-helper' });
    assert.equal(await answer.isVisible(), true);
    assert.match(await answer.innerText(), /reject anything older than five minutes/);
    await page.getByRole('link', { name: 'Acme', exact: true }).click();
    await page.waitForURL(/acme\.localhost:\d+\/$/);
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Acme');
    await page.getByRole('link', { name: 'Verifying the hamlet-signature header' }).first().click();
    await page.waitForURL(/\/t\/verifying-the-hamlet-signature-header$/);
    await page.close();
  });
}
