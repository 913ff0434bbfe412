// A moderator suspends a member from the profile, in Debian's Chromium on the path form
// (/c/acme/…): the author's user card on the topic page leads to the profile, the form there
// suspends, the member then reads the community with the notice atop it (a <time> with a readable
// date) and no "Ask a question", and the moderator lifts it from the same profile. Every step stays
// inside /c/acme/, and axe-core finds nothing on the profile, its card and the member's page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { checkAxe, chromiumAvailable, contextFor, launch, shoot } from './browser-kit.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';

if (chromiumAvailable('suspending from a profile in Chromium')) {
  let h: TestHamlet;
  let browser: Browser;
  let acme: Community;
  let slug: string;
  const url = (path: string) => `http://localhost:${h.port}/c/acme${path}`;

  async function signedIn(email: string, name: string, role: 'member' | 'moderator') {
    await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
    await h.services.accounts.addMember(system, acme, { email, role });
    const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
    return (await contextFor(browser, h, 'localhost', token)).newPage();
  }

  before(async () => {
    h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
    acme = (await h.store.communities.getBySlug('acme'))!;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  describe('people', () => {
    test('a moderator suspends a member from the profile on the path form, and lifts it', async () => {
      const sam = await signedIn('sam@example.org', 'Sam Spammer', 'member');
      const person = (await h.store.people.getByEmail('sam@example.org'))!;
      const made = await writeApplied(
        h.services.writes,
        { kind: 'person', personId: person.id, displayName: 'Sam Spammer' },
        acme,
        'topic.create',
        {
          category: 'support',
          title: 'Cheap exporter licences here',
          body: 'Buy them at the link.',
        },
      );
      slug = made.topic.slug;
      const mod = await signedIn('meg@example.org', 'Meg Moderator', 'moderator');
      await mod.goto(url(`/t/${slug}`));
      const question = mod.getByRole('article').first();
      await question.locator('summary', { hasText: 'Sam Spammer' }).click();
      const card = question.getByRole('group', { name: 'About Sam Spammer' });
      await card.getByRole('link', { name: 'Profile and posts' }).waitFor();
      await checkAxe(mod, 'topic with an open user card');
      await shoot(mod, 'people', '01-user-card');
      await card.getByRole('link', { name: 'Suspend or silence…' }).click();
      await mod.waitForLoadState();
      assert.equal(new URL(mod.url()).pathname, `/c/acme/u/${person.handle}`);
      await checkAxe(mod, 'profile, for a moderator');

      await mod.locator('summary', { hasText: 'Suspend or silence' }).click();
      await mod.getByLabel('What').selectOption('suspended');
      await mod.getByLabel('For how many days').fill('3');
      await mod.getByLabel('Reason').fill('Selling licences, not answering.');
      const action = await mod
        .locator('form', { has: mod.getByRole('button', { name: 'Apply to Sam Spammer' }) })
        .getAttribute('action');
      assert.equal(action, '/c/acme/moderation/sanctions');
      await shoot(mod, 'people', '02-suspend-form');
      await mod.getByRole('button', { name: 'Apply to Sam Spammer' }).click();
      await mod.waitForLoadState();
      assert.equal(
        new URL(mod.url()).pathname,
        `/c/acme/u/${person.handle}`,
        'back on the profile',
      );
      assert.match(
        await mod.locator('main .notice').first().innerText(),
        /^Sam Spammer is suspended until \w{3} \d+, \d{4}, \d\d:\d\d UTC\.$/,
      );
      const state = mod.locator('#moderate + p');
      assert.match(await state.innerText(), /Sam Spammer is suspended until .* by Meg Moderator/);
      assert.match(
        (await state.locator('time').getAttribute('datetime')) ?? '',
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
      );

      await sam.goto(url('/'));
      const told = await sam.locator('main .notice').first().innerText();
      assert.match(told, /^You are suspended here until \w{3} \d+, \d{4}, \d\d:\d\d UTC by Meg/);
      assert.doesNotMatch(told, /\.\.|T\d\d:\d\d:\d\d/, 'one full stop, no raw ISO time');
      assert.equal(await sam.getByRole('link', { name: 'Ask a question' }).count(), 0);
      await checkAxe(sam, 'home, for a suspended member');
      await shoot(sam, 'people', '03-suspended-member');
      await sam.goto(url(`/t/${slug}`));
      assert.equal(await sam.getByRole('heading', { level: 1 }).innerText(), made.topic.title);

      await mod.getByRole('button', { name: 'Lift for Sam Spammer' }).click();
      await mod.waitForLoadState();
      assert.match(await mod.locator('#moderate + p').innerText(), /may read and write here/);
      await sam.goto(url('/'));
      assert.equal(await sam.getByRole('link', { name: 'Ask a question' }).count(), 2);
    });
  });
}
