// The composer's @handle hint in Chromium: typing "@" and the start of a member's name under a
// topic lists them (and the community's agents), pressing a suggestion writes the handle, and the
// posted reply links the mention to the profile. Without JavaScript the form is the same.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { checkAxe, chromiumAvailable, contextFor, launch } from './browser-kit.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';

if (chromiumAvailable('@handle hint in Chromium')) {
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

  test('typing @ and a name suggests the member; pressing it writes the handle', async () => {
    for (const [email, name] of [
      ['writer@example.org', 'Wren Writer'],
      ['quentin@example.org', 'Quentin Mentionable'],
    ] as const) {
      await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
      await h.services.accounts.addMember(system, acme, { email, role: 'member' });
    }
    const { token } = await h.services.accounts.signIn({
      email: 'writer@example.org',
      password: PASSWORD,
    });
    const page = await (await contextFor(browser, h, 'acme.localhost', token)).newPage();
    const made = await writeApplied(h.services.writes, system, acme, 'topic.create', {
      category: 'support',
      title: 'Who knows the exporter best?',
      body: 'Someone should look at this.',
    });
    await page.goto(h.hostUrl('acme.localhost', `/t/${made.topic.slug}`));
    const reply = page.getByLabel('Reply', { exact: true });
    await reply.click();
    await reply.pressSequentially('Asking @quen');
    const hint = page.getByRole('list', { name: 'People and agents you can mention' });
    const suggestion = hint.getByRole('button', {
      name: /@quentin-mentionable \(Quentin Mentionable\)/,
    });
    await suggestion.waitFor({ timeout: 5_000 });
    await checkAxe(page, 'reply composer with the @handle hint');
    await suggestion.click();
    assert.equal(await reply.inputValue(), 'Asking @quentin-mentionable ');
    assert.equal(await hint.isHidden(), true);
    await reply.pressSequentially('can you look?');
    await page.getByRole('button', { name: 'Post reply' }).click();
    await page.waitForLoadState();
    const link = page.locator('main .post-body a.mention', { hasText: '@quentin-mentionable' });
    assert.equal(await link.count(), 1, 'the mention links to the profile');
  });
}
