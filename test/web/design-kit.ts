// The design pass's harness: a demo Hamlet with a signed-in administrator, and for a list of page
// types one test per colour scheme that opens each page in Debian's Chromium and requires no axe-core
// violation at all (colour contrast included), nothing wider than a 320 px screen, no tap target in
// posts and lists under 24 × 24 px at 390 px (WCAG 2.5.8; links inside a post's text are inline and
// exempt), and screenshots at 1280 and 390 px (test-artifacts/web/design-<page>-<scheme>-<width>.png).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { axeFindings, ARTIFACTS, chromiumAvailable, launch, screenshot } from './browser-kit.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
const SCHEMES = ['light', 'dark'] as const;

/** A page type: its name, host, path (or a path found once the demo runs), and who opens it. */
export type DesignPage = {
  name: string;
  host: string;
  path: string | ((h: TestHamlet) => Promise<string>);
  signedIn: boolean;
  /** The status the page answers with (200 unless said). */
  status?: number;
};

/** Where tap targets must be 24 px: posts and lists (a post's own text excepted: inline links). */
const TARGETS = ['article', '.topics', '.notifications', '.bookmarks', '.post-actions']
  .flatMap((area) => ['a', 'button', 'summary', 'select'].map((t) => `main ${area} ${t}`))
  .join(',');

/** The visible tap targets in posts and lists smaller than 24 × 24 px, named. */
async function smallTargets(page: import('playwright-core').Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (el.closest('.post-body, .preview, .visually-hidden')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width < 24 || r.height < 24)
        out.push(
          `tap target "${(el.innerText || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 40)}" is ${Math.round(r.width)}×${Math.round(r.height)} px`,
        );
    }
    return out;
  }, TARGETS);
}

export function designPass(title: string, pages: DesignPage[]): void {
  if (!chromiumAvailable(title)) return;
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

  describe(title, () => {
    for (const scheme of SCHEMES)
      test(`every page type in the ${scheme} scheme: no axe violation, no sideways scrolling at 320 px`, async () => {
        mkdirSync(ARTIFACTS, { recursive: true });
        const contexts = { anon: await context(scheme, false), admin: await context(scheme, true) };
        const found: string[] = [];
        for (const { name, host, path, signedIn, status } of pages) {
          const page = await (signedIn ? contexts.admin : contexts.anon).newPage();
          const where = typeof path === 'string' ? path : await path(h);
          const res = await page.goto(h.hostUrl(host, where));
          assert.equal(res?.status(), status ?? 200, `${name} (${where}): status`);
          assert.equal(
            await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches),
            scheme === 'dark',
          );
          for (const finding of await axeFindings(page)) found.push(`${name}: ${finding}`);
          const base = join(ARTIFACTS, `design-${name}-${scheme}`);
          await screenshot(page, `${base}-1280.png`);
          await page.setViewportSize({ width: 390, height: 800 });
          await screenshot(page, `${base}-390.png`);
          for (const small of await smallTargets(page)) found.push(`${name}: ${small}`);
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
