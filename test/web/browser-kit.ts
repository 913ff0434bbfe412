// What the browser journeys share: Debian's Chromium through playwright-core (skipped where it is not
// installed, a failure under CI=true), screenshots of every step at desktop width and at 360 px
// (in test-artifacts/web/, gitignored; not in CI unless HAMLET_TEST_SCREENSHOTS=1), an axe-core
// check per page type (no serious or critical violation), and people signed in by a real session
// cookie.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import type { TestHamlet } from '../app/helpers.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = resolve(process.env.HAMLET_TEST_ARTIFACTS ?? 'test-artifacts/web');

/** Registers a stand-in test when Chromium is missing; true when the journeys can run. */
export function chromiumAvailable(name: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true')
    test(name, () => assert.fail(`CI=true but ${CHROMIUM} is missing (apt-get install chromium)`));
  else test(name, { skip: `${CHROMIUM} is not installed` }, () => {});
  return false;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
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
}

/** A browser context at desktop size; signed in as `sessionToken` on `host` when given. */
export async function contextFor(
  browser: Browser,
  h: TestHamlet,
  host?: string,
  sessionToken?: string,
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (host && sessionToken)
    await context.addCookies([
      {
        name: 'hamlet_session',
        value: sessionToken,
        domain: host,
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
  void h;
  return context;
}

const shots: string[] = [];

/**
 * Whether screenshots are written: for a person looking at the pages, so by default not in CI, whose
 * clean clone is thrown away after the run (rasterizing and encoding full pages is most of a browser
 * test's time there). HAMLET_TEST_SCREENSHOTS=1 or 0 decides either way.
 */
export const SCREENSHOTS =
  process.env.HAMLET_TEST_SCREENSHOTS !== undefined
    ? process.env.HAMLET_TEST_SCREENSHOTS === '1'
    : process.env.CI !== 'true';

/** A full-page screenshot at `path`, when screenshots are written. */
export async function screenshot(page: Page, path: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path, fullPage: true });
}

/**
 * Saves the page as `<journey>-<step>-desktop.png` and `-360.png` (full page), and checks that at
 * 360 px nothing is wider than the screen (no sideways scrolling).
 */
export async function shoot(page: Page, journey: string, step: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  const base = join(ARTIFACTS, `${journey}-${step}`);
  await screenshot(page, `${base}-desktop.png`);
  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  await screenshot(page, `${base}-360.png`);
  await page.setViewportSize(size);
  if (SCREENSHOTS) shots.push(`${journey}-${step}-desktop.png`, `${journey}-${step}-360.png`);
  assert.ok(
    overflow <= 0,
    `${journey}/${step}: at 360 px the page is ${overflow} px wider than the screen`,
  );
}

const axeResults: Record<string, { violations: number; serious: string[] }> = {};

/** axe-core's violations on the page as it is now (every rule, colour contrast included). */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  return (await new AxeBuilder({ page }).analyze()).violations;
}

type AxeViolation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** The first elements a violation was found on, as CSS selectors. */
const targetsOf = (v: AxeViolation) =>
  v.nodes
    .map((n) => n.target.join(' '))
    .slice(0, 3)
    .join(', ');

/** Each axe-core violation on the page as it is now, as "rule (where)": none is what a test wants. */
export async function axeFindings(page: Page): Promise<string[]> {
  return (await axeViolations(page)).map((v) => `${v.id} (${targetsOf(v)})`);
}

/** axe-core on the page as it is now: no serious or critical violation (all findings are recorded). */
export async function checkAxe(page: Page, pageType: string): Promise<void> {
  const violations = await axeViolations(page);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  axeResults[pageType] = {
    violations: violations.length,
    serious: serious.map((v) => `${v.id}: ${v.help} (${targetsOf(v)})`),
  };
  assert.deepEqual(
    axeResults[pageType]!.serious,
    [],
    `${pageType}: axe reports serious or critical violations`,
  );
}

/** Writes the list of screenshots and the axe results beside them (for the closing note). */
export function writeReport(journey: string): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(
    join(ARTIFACTS, `${journey}-report.json`),
    JSON.stringify(
      { screenshots: shots.filter((s) => s.startsWith(`${journey}-`)), axe: axeResults },
      null,
      2,
    ),
  );
}
