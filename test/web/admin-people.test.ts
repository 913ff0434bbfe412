// The administration pages in Debian's Chromium at 1280 and 390 px, with axe-core finding nothing on
// any of them: the members page lists everyone of the community (a person who only posted shows,
// with no role), page after page; the Copy buttons put a new agent key, a webhook's secret and the
// connector URL on the clipboard and say "Copied" (and stay hidden without JavaScript); at 390 px
// every action button of the key, member and webhook tables is inside the screen; and a bad MCP
// configuration is reported at the top of the settings page, linked to its field. Screenshots in
// test-artifacts/web/admin-<page>-<width>.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { axeFindings, ARTIFACTS, chromiumAvailable, launch, screenshot } from './browser-kit.ts';
import { Receiver, waitFor } from '../webhooks/receiver.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';

if (chromiumAvailable('administration pages in Chromium')) {
  let h: TestHamlet;
  let browser: Browser;
  let acme: Community;
  let context: BrowserContext;
  // The webhook is delivered on loopback: the machine may have no route to the internet.
  let receiver: Receiver;
  const url = (path: string) => h.hostUrl('acme.localhost', path);

  before(async () => {
    receiver = await new Receiver().start();
    h = await startTestHamlet(
      { HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000', HAMLET_WEBHOOK_ALLOW_PRIVATE: '1' },
      { demo: true },
    );
    acme = (await h.store.communities.getBySlug('acme'))!;
    await h.services.accounts.createUser(system, {
      email: 'ada@example.org',
      password: PASSWORD,
      name: 'Ada Admin',
    });
    await h.services.accounts.addMember(system, acme, { email: 'ada@example.org', role: 'owner' });
    await h.services.accounts.createUser(system, {
      email: 'mo@example.org',
      password: PASSWORD,
      name: 'Mo Member',
    });
    await h.services.accounts.addMember(system, acme, { email: 'mo@example.org', role: 'member' });
    // Someone who took part without being given a role.
    const pat = await h.services.accounts.createUser(system, {
      email: 'pat@example.org',
      password: PASSWORD,
      name: 'Pat Poster',
    });
    await writeApplied(
      h.services.writes,
      { kind: 'person', personId: pat.id, displayName: 'Pat Poster' },
      acme,
      'topic.create',
      { category: 'support', title: 'A question from Pat', body: 'Pat has not been given a role.' },
    );
    const { token } = await h.services.accounts.signIn({
      email: 'ada@example.org',
      password: PASSWORD,
    });
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: url('').replace(/\/$/, ''),
    });
    await context.addCookies([
      { name: 'hamlet_session', value: token, domain: 'acme.localhost', path: '/' },
    ]);
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
    await receiver?.stop();
  });

  /** axe-core finds nothing; screenshots at 1280 and 390 px (the page is left at 390 px). */
  async function check(page: Page, name: string): Promise<void> {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(await axeFindings(page), [], `${name}: axe violations`);
    await screenshot(page, join(ARTIFACTS, `admin-${name}-1280.png`));
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, join(ARTIFACTS, `admin-${name}-390.png`));
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `${name}: ${overflow} px wider than 390 px`);
  }

  /** Every visible button of the page's data tables lies inside the 390 px screen. */
  async function buttonsOnScreen(page: Page, name: string, atLeast: number): Promise<void> {
    const buttons = page.locator('table.data button:visible');
    const count = await buttons.count();
    assert.ok(count >= atLeast, `${name}: ${count} table buttons, expected ${atLeast}+`);
    for (let i = 0; i < count; i++) {
      const box = (await buttons.nth(i).boundingBox())!;
      assert.ok(
        box.x >= 0 && box.x + box.width <= 390,
        `${name}: button ${i} spans ${box.x}-${box.x + box.width} px of 390`,
      );
    }
  }

  /** Clicks the Copy button of box `id`: the clipboard then holds the box's text. */
  async function copies(page: Page, id: string): Promise<string> {
    const value = (await page.locator(`#${id}`).innerText()).trim();
    const button = page.locator(`button[data-copy="${id}"]`);
    assert.ok(await button.isVisible(), `the Copy button of #${id} shows with JavaScript`);
    await button.click();
    await page
      .locator(`button[data-copy="${id}"] ~ .copy-status`)
      .filter({ hasText: 'Copied' })
      .waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), value);
    return value;
  }

  describe('administration pages', () => {
    test('the members page lists everyone, page after page, role or not', async () => {
      const page = await context.newPage();
      await page.goto(url('/admin/members'));
      const shown: string[] = [];
      for (;;) {
        shown.push(...(await page.locator('#members tbody th[scope=row]').allInnerTexts()));
        const older = page.getByRole('link', { name: 'Older members' });
        if ((await older.count()) === 0) break;
        await older.click();
      }
      const everyone: string[] = [];
      let cursor: string | undefined;
      do {
        const p = await h.services.accounts.listPeople(system, acme, { cursor, limit: 200 });
        everyone.push(...p.people.map((m) => m.displayName));
        cursor = p.nextCursor ?? undefined;
      } while (cursor);
      assert.ok(everyone.length > 3, 'the demo brings people who posted');
      assert.deepEqual(shown.map((s) => s.trim()).sort(), everyone.sort());
      await page.goto(url('/admin/members'));
      const pat = page.locator('#members tr', { hasText: 'Pat Poster' });
      assert.match(await pat.innerText(), /no role/);
      assert.ok(await pat.getByRole('button', { name: 'Make Pat Poster a member' }).isVisible());
      assert.match(
        await page.locator('#members tr', { hasText: 'Mo Member' }).innerText(),
        /member/,
      );
      await check(page, 'members');
      await buttonsOnScreen(page, 'members', 3);
      await pat.getByRole('button', { name: 'Make Pat Poster a member' }).click();
      await page.getByText('pat@example.org is now member.').waitFor();
      await page.close();
    });

    test('a new agent key and the connector URL copy with one click; key buttons fit at 390 px', async () => {
      const page = await context.newPage();
      await page.goto(url('/admin/agents'));
      assert.equal(
        (await page.locator('#connector-url').innerText()).trim(),
        url('/mcp'),
        'the connector URL, in the form the page was reached',
      );
      await page.getByLabel('Name', { exact: true }).fill('copy-bot');
      await page.getByRole('button', { name: 'Create agent' }).click();
      const key = await copies(page, 'new-key');
      assert.match(key, /^hmlt_live_/);
      await copies(page, 'connector-url');
      await check(page, 'agents');
      await buttonsOnScreen(page, 'agents', 1);
      await page.close();

      const apps = await context.newPage();
      await apps.goto(url('/admin/apps'));
      assert.equal(await copies(apps, 'connector-url'), url('/mcp'));
      await check(apps, 'apps');
      await apps.close();
    });

    test("a webhook's secret copies; its deliveries and Delete fit at 390 px", async () => {
      const page = await context.newPage();
      await page.goto(url('/admin/webhooks'));
      await page.getByLabel('URL').fill(receiver.url('/hamlet-hook'));
      await page.getByLabel('topic.created').check();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      assert.match(await copies(page, 'new-key'), /^whsec_/);
      await check(page, 'webhooks-secret');
      await writeApplied(h.services.writes, system, acme, 'topic.create', {
        category: 'support',
        title: 'A topic for the webhook log',
        body: 'The webhook should hear about this one.',
      });
      await waitFor(() => receiver.received.length > 0, 20_000, 'the webhook delivery');
      for (let i = 0; i < 50; i++) {
        await page.goto(url('/admin/webhooks'));
        if (await page.getByText('Recent deliveries to').count()) break;
        await page.waitForTimeout(200);
      }
      assert.equal(await page.getByText('Recent deliveries to').count(), 1);
      await check(page, 'webhooks');
      const del = page.getByRole('button', { name: /Delete the webhook/ });
      const box = (await del.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= 390, 'Delete is on screen');
      await page.close();
    });

    test('without JavaScript the secret stays as text and no Copy button shows', async () => {
      const bare = await browser.newContext({ javaScriptEnabled: false });
      await bare.addCookies(await context.cookies());
      const page = await bare.newPage();
      await page.goto(url('/admin/agents'));
      assert.equal(await page.locator('button[data-copy]:visible').count(), 0);
      assert.equal((await page.locator('#connector-url').innerText()).trim(), url('/mcp'));
      await bare.close();
    });

    test('a bad MCP configuration is reported at the top of the settings page, linked to it', async () => {
      const page = await context.newPage();
      await page.goto(url('/admin/settings'));
      await page.getByLabel('Configuration (JSON)').fill('{"tool_mode":"three"}');
      await page.getByRole('button', { name: 'Save configuration' }).click();
      const summary = page.locator('main .notice.error').first();
      const top = (await summary.boundingBox())!.y;
      assert.ok(top < 400, `the summary starts ${top} px down`);
      assert.match(await summary.innerText(), /tool_mode/);
      await summary.getByRole('link', { name: 'Configuration (JSON)' }).click();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'f-config');
      await check(page, 'settings-error');
      await page.close();
    });
  });
}
