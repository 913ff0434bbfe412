// The bell in Debian's Chromium, on the path form (/c/acme/…): an agent's reply over MCP rings the
// asker's bell; the home page's list names the agent as the last poster; the bell's menu (a
// <details>, no script needed) shows the reply's first words; opening it lands on the reply inside
// /c/acme/ and the bell is back at 0, on that page already and on the next.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { rpc } from '../mcp/http-client.ts';
import { checkAxe, chromiumAvailable, contextFor, launch, shoot } from './browser-kit.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';

if (chromiumAvailable('the bell in Chromium')) {
  let h: TestHamlet;
  let browser: Browser;
  let acme: Community;
  const url = (path: string) => h.hostUrl('localhost', `/c/acme${path}`);

  before(async () => {
    h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
    acme = (await h.store.communities.getBySlug('acme'))!;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  test('an agent’s reply rings the bell, the list names it last poster, opening the reply clears the bell', async () => {
    const key = (
      await h.services.agents.create(system, acme, { name: 'bell-bot', scopes: ['post:create'] })
    ).key;
    await h.services.accounts.createUser(system, {
      email: 'bell-asker@example.org',
      password: PASSWORD,
      name: 'Bea Asker',
    });
    await h.services.accounts.addMember(system, acme, {
      email: 'bell-asker@example.org',
      role: 'member',
    });
    const { token } = await h.services.accounts.signIn({
      email: 'bell-asker@example.org',
      password: PASSWORD,
    });
    const asker = (await h.services.accounts.resolveWebSession(token))!;
    const asked = await h.services.writes.execute(asker, acme, 'topic.create', {
      category: 'support',
      title: 'Why does the bell never stop ringing?',
      body: 'I open the reply and the count stays.',
    });
    assert.equal(asked.status, 'applied');
    const topic = asked.status === 'applied' ? asked.result.topic! : undefined;

    const context = await contextFor(browser, h, 'localhost', token);
    const page = await context.newPage();
    await page.goto(url('/'));
    const bell = page.locator('summary.bell');
    assert.equal(await bell.getAttribute('aria-label'), 'Notifications: 0 unread');

    const reply = await rpc(
      url('/api/mcp'),
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'reply_to_topic',
          arguments: {
            topic: topic!.id,
            body: 'Opening the **notified post** now reads it: the bell lets go.',
          },
        },
      },
      { authorization: `Bearer ${key}` },
    );
    const answered = reply.json().result as { isError: boolean; structuredContent: any };
    assert.equal(answered.isError, false, JSON.stringify(answered));
    const postId = answered.structuredContent.post.id as string;

    await page.reload();
    assert.equal(await bell.getAttribute('aria-label'), 'Notifications: 1 unread');
    const row = page.locator('ul.topics li', { hasText: 'Why does the bell never stop ringing?' });
    assert.match(await row.first().innerText(), /last by\s+BB\s*bell-bot\s+Agent/);
    await checkAxe(page, 'community home with an unread notification');
    await shoot(page, 'bell', '01-home-unread');

    await bell.click();
    const menu = page.locator('.bell-panel');
    const item = menu.getByRole('link', { name: /bell-bot \(agent\) replied to/ });
    assert.match(await item.innerText(), /Opening the notified post now reads it/);
    await checkAxe(page, 'the bell menu open');
    await shoot(page, 'bell', '02-menu');

    await item.click();
    await page.waitForURL((u) => u.pathname.startsWith('/c/acme/t/'));
    assert.equal(new URL(page.url()).hash, `#post-${postId}`);
    assert.equal(await bell.getAttribute('aria-label'), 'Notifications: 0 unread');
    await shoot(page, 'bell', '03-opened');
    await page.goto(url('/notifications'));
    assert.equal(await bell.getAttribute('aria-label'), 'Notifications: 0 unread');
    assert.match(await page.locator('main').innerText(), /0 unread/);
    await context.close();
  });
}
