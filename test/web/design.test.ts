// The design pass in Debian's Chromium: each page type (home, topic, search, ask, sign-in, network
// apex, notifications, admin) in the light and the dark scheme has no axe-core violation at all
// (colour contrast included), nothing wider than a 320 px screen, and screenshots at 1280 and 390 px
// in both schemes (test-artifacts/web/design-<page>-<scheme>-<width>.png).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { ARTIFACTS, chromiumAvailable, launch } from './browser-kit.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
const SCHEMES = ['light', 'dark'] as const;

if (chromiumAvailable('design pass in Chromium')) {
  let h: TestHamlet;
  let browser: Browser;
  let token: string;

  before(async () => {
    h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
    const acme = (await h.store.communities.getBySlug('acme'))!;
    await h.services.accounts.createUser(system, {
      email: 'ada@example.org',
      password: PASSWORD,
      name: 'Ada',
    });
    await h.services.accounts.addMember(system, acme, { email: 'ada@example.org', role: 'admin' });
    token = (await h.services.accounts.signIn({ email: 'ada@example.org', password: PASSWORD }))
      .token;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  // Each page: its name, host, path, and whether the visitor is the signed-in admin.
  const PAGES: [string, string, string, boolean][] = [
    ['home', 'acme.localhost', '/', false],
    ['topic', 'acme.localhost', '/t/verifying-the-hamlet-signature-header', true],
    ['search', 'acme.localhost', '/search?q=signature', false],
    ['ask', 'acme.localhost', '/ask', true],
    ['signin', 'acme.localhost', '/signin', false],
    ['network', 'localhost', '/', false],
    ['notifications', 'acme.localhost', '/notifications', true],
    ['admin', 'acme.localhost', '/admin', true],
  ];

  async function context(scheme: 'light' | 'dark', signedIn: boolean): Promise<BrowserContext> {
    const c = await browser.newContext({
      colorScheme: scheme,
      viewport: { width: 1280, height: 900 },
    });
    if (signedIn)
      await c.addCookies([
        { name: 'hamlet_session', value: token, domain: 'acme.localhost', path: '/' },
      ]);
    return c;
  }

  describe('design pass', () => {
    for (const scheme of SCHEMES)
      test(`every page type in the ${scheme} scheme: no axe violation, no sideways scrolling at 320 px`, async () => {
        mkdirSync(ARTIFACTS, { recursive: true });
        const contexts = { anon: await context(scheme, false), admin: await context(scheme, true) };
        const found: string[] = [];
        for (const [name, host, path, signedIn] of PAGES) {
          const page = await (signedIn ? contexts.admin : contexts.anon).newPage();
          const res = await page.goto(h.hostUrl(host, path));
          assert.equal(res?.status(), 200, `${name}: status`);
          assert.equal(
            await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches),
            scheme === 'dark',
          );
          const axe = await new AxeBuilder({ page }).analyze();
          for (const v of axe.violations)
            found.push(
              `${name}: ${v.id} (${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 3)
                .join(', ')})`,
            );
          const base = join(ARTIFACTS, `design-${name}-${scheme}`);
          await page.screenshot({ path: `${base}-1280.png`, fullPage: true });
          await page.setViewportSize({ width: 390, height: 800 });
          await page.screenshot({ path: `${base}-390.png`, fullPage: true });
          await page.setViewportSize({ width: 320, height: 700 });
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          assert.ok(overflow <= 0, `${name} (${scheme}): ${overflow} px wider than 320 px`);
          await page.close();
        }
        await contexts.anon.close();
        await contexts.admin.close();
        assert.deepEqual(found, [], `${scheme}: axe violations`);
      });
  });
}
