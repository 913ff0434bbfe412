// Members of a private community (the demo's skunkworks) sign in where they open it, in Debian's
// Chromium at 1280 and 390 px with axe-core finding nothing: on its own host the not-found page has
// the site's look and leads to a sign-in form that opens the community; the path form
// /c/skunkworks/signin signs in too; and signed in on the apex, the directory lists "Your
// communities", private ones included. Over plain HTTP: these sign-in pages answer an unknown
// community exactly as they answer the private one, and an outsider who signs in still finds
// nothing. Screenshots in test-artifacts/web/private-<step>-<width>.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { raw } from '../mcp/http-client.ts';
import { axeFindings, ARTIFACTS, chromiumAvailable, launch, screenshot } from './browser-kit.ts';
import { visible, WebClient } from './client.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
const FALCON = 'Project Falcon: launch checklist';

let h: TestHamlet;
before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  const skunk = (await h.store.communities.getBySlug('skunkworks'))!;
  for (const [email, name] of [
    ['insider@example.org', 'Ines Insider'],
    ['outsider@example.org', 'Otto Outsider'],
  ] as const)
    await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  await h.services.accounts.addMember(system, skunk, {
    email: 'insider@example.org',
    role: 'member',
  });
});
after(() => h?.stop());

/** A page's text with the per-visitor form token taken out. */
const tokenless = (html: string) => html.replace(/name="_csrf" value="[^"]*"/g, '');

test('the sign-in of a private community answers as an unknown one does, and lets no outsider in', async () => {
  for (const [mine, unknown] of [
    [h.hostUrl('skunkworks.localhost', '/signin'), h.hostUrl('nosuch.localhost', '/signin')],
    [h.hostUrl('skunkworks.localhost', '/'), h.hostUrl('nosuch.localhost', '/')],
  ]) {
    const [a, b] = [await raw(mine!), await raw(unknown!)];
    assert.equal(a.status, b.status, mine);
    assert.equal(tokenless(a.text), tokenless(b.text), mine);
    assert.doesNotMatch(a.text, /Falcon|Skunkworks/);
  }
  const pathForm = await raw(h.hostUrl('localhost', '/c/skunkworks/signin'));
  const unknownPath = await raw(h.hostUrl('localhost', '/c/nosuch/signin'));
  assert.equal(pathForm.status, 200);
  assert.equal(
    tokenless(pathForm.text).replaceAll('skunkworks', 'nosuch'),
    tokenless(unknownPath.text),
    'the path form differs only by the slug the address named',
  );

  // An outsider with a right password gets a session, and the community stays not found.
  const outsider = new WebClient(h.hostUrl('skunkworks.localhost', ''));
  await outsider.get('/signin?next=/');
  const signedIn = await outsider.post('/signin', {
    email: 'outsider@example.org',
    password: PASSWORD,
    next: '/',
  });
  assert.equal(signedIn.status, 404);
  assert.equal(signedIn.text, (await raw(h.hostUrl('nosuch.localhost', '/'))).text);
  const wrong = await outsider.get('/signin');
  const refused = await outsider.post('/signin', {
    email: 'insider@example.org',
    password: 'not the password',
  });
  assert.equal(wrong.status, 200);
  assert.equal(refused.status, 401);
  assert.match(visible(refused.text), /password/i);
});

if (chromiumAvailable('private community sign-in in Chromium')) {
  let browser: Browser;
  before(async () => {
    browser = await launch();
  });
  after(() => browser?.close());

  async function check(page: Page, name: string): Promise<void> {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(await axeFindings(page), [], `${name}: axe violations`);
    await screenshot(page, join(ARTIFACTS, `private-${name}-1280.png`));
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, join(ARTIFACTS, `private-${name}-390.png`));
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `${name}: ${overflow} px wider than 390 px`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  async function signIn(page: Page): Promise<void> {
    await page.getByLabel('E-mail address').fill('insider@example.org');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  describe('private community sign-in', () => {
    test('a member opens the private host, signs in there and reads it', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const res = await page.goto(
        h.hostUrl('skunkworks.localhost', '/t/project-falcon-launch-checklist'),
      );
      assert.equal(res?.status(), 404);
      // Styled: the site's stylesheet is served on this host and applied.
      assert.notEqual(await page.evaluate(() => getComputedStyle(document.body).maxWidth), 'none');
      await check(page, 'host-not-found');
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await check(page, 'host-signin');
      await signIn(page);
      await page.getByRole('link', { name: FALCON }).first().click();
      await page.getByRole('heading', { name: FALCON }).waitFor();
      await check(page, 'host-topic');
      await context.close();
    });

    test('the path form has its own sign-in; the apex then lists "Your communities"', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const res = await page.goto(h.hostUrl('localhost', '/c/skunkworks/signin'));
      assert.equal(res?.status(), 200);
      await check(page, 'path-signin');
      await signIn(page);
      await page.waitForURL(/\/c\/skunkworks\/$/);
      assert.match(await page.locator('main').innerText(), /Falcon/);
      await check(page, 'path-home');

      await page.goto(h.hostUrl('localhost', '/'));
      const yours = page.getByRole('heading', { name: 'Your communities' });
      await yours.waitFor();
      const list = page.locator('ul[aria-labelledby="yours"]');
      assert.match(await list.innerText(), /Skunkworks[\s\S]*private/i);
      await check(page, 'apex-yours');
      await list.getByRole('link', { name: /Skunkworks/i }).click();
      assert.match(await page.locator('main').innerText(), /Falcon/);
      await context.close();
    });
  });
}
