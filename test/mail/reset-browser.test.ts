// In a real Chromium: a person who forgot their password asks for a link at /password/forgot,
// opens the link of the mail that arrived at the SMTP server, chooses a new password and signs in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { chromiumAvailable, launch } from '../web/browser-kit.ts';

const NAME = 'a forgotten password is reset from the mailed link in Chromium';

if (chromiumAvailable(NAME)) {
  let h: TestHamlet;
  let sink: SmtpSink;
  let browser: Browser;
  before(async () => {
    sink = await startSmtpSink();
    h = await startTestHamlet({ HAMLET_SMTP_URL: sink.url });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
    await sink?.close();
  });

  test(NAME, async () => {
    await h.services.accounts.createUser(systemActor('test'), {
      email: 'lee@example.org',
      password: 'the old password',
      name: 'Lee',
    });
    const page = await browser.newPage();
    await page.goto(h.hostUrl('localhost', '/signin'));
    await page.getByLabel('E-mail address').fill('lee@example.org');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('get a new one at /password/forgot').waitFor();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/\/password\/forgot$/);
    await page.getByLabel('E-mail address').fill('lee@example.org');
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();

    const mail = await sink.next('lee@example.org', /Reset your password/);
    await page.goto(linkIn(mail, '/password/reset'));
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL(/\/signin$/);
    await page.getByText('Your password was changed').waitFor();
    await page.getByLabel('E-mail address').fill('lee@example.org');
    await page.getByLabel('Password').fill('a brand new password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as Lee.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    await page.close();
  });
}
