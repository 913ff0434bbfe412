// The webhooks admin page over plain HTTP, as a browser without JavaScript uses it: administrators
// only; adding a webhook shows its signing secret once (never again on the list), a mistake comes
// back on the form with what to fix, each webhook lists its recent deliveries, and deleting one asks
// on a page of its own before it is gone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { waitFor } from '../helpers/wait.ts';
import { Receiver } from '../webhooks/receiver.ts';
import { visible, WebClient } from './client.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
// Deliveries go to a receiver on loopback: the machine may have no route to the internet.
let receiver: Receiver;
let HOOK: string;
let h: TestHamlet;
let acme: Community;

async function signedIn(email: string, role: 'owner' | 'member'): Promise<WebClient> {
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name: email });
  await h.services.accounts.addMember(system, acme, { email, role });
  const client = new WebClient(`http://acme.localhost:${h.port}`);
  await client.get('/signin');
  await client.post('/signin', { email, password: PASSWORD, next: '/' });
  return client;
}

before(async () => {
  receiver = await new Receiver().start();
  HOOK = receiver.url('/hamlet-hook');
  h = await startTestHamlet(
    { HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000', HAMLET_WEBHOOK_ALLOW_PRIVATE: '1' },
    { demo: true },
  );
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(async () => {
  await h?.stop();
  await receiver?.stop();
});

test('administrators add, watch and delete webhooks on /admin/webhooks; members are refused', async () => {
  const member = await signedIn('member@example.org', 'member');
  const refused = await member.get('/admin/webhooks');
  assert.equal(refused.status, 403);

  const owner = await signedIn('owner@example.org', 'owner');
  const empty = await owner.get('/admin/webhooks');
  assert.equal(empty.status, 200);
  assert.doesNotMatch(visible(empty.text), /not available/i);

  const wrong = await owner.post('/admin/webhooks', { url: 'not a url', events: 'topic.created' });
  assert.equal(wrong.status, 400);
  assert.match(visible(wrong.text), /url/i);

  await owner.get('/admin/webhooks');
  const made = await owner.post('/admin/webhooks', {
    url: HOOK,
    events: ['topic.created', 'post.created'],
    description: 'our bot',
  });
  assert.equal(made.status, 200, made.text.slice(0, 500));
  const secret = /whsec_[A-Za-z0-9+/=_-]+/.exec(made.text)?.[0];
  assert.ok(secret, 'the signing secret is shown once');
  assert.match(made.headers['cache-control'] ?? '', /no-store/);

  const listed = await owner.get('/admin/webhooks');
  assert.ok(listed.text.includes(HOOK));
  assert.ok(!listed.text.includes(secret!), 'never shown again');

  // A new topic is delivered: the receiver hears it and the delivery appears in the webhook's log.
  await writeApplied(h.services.writes, system, acme, 'topic.create', {
    category: 'support',
    title: 'A topic for the webhook log',
    body: 'The webhook should hear about this one.',
  });
  await waitFor(async () =>
    /Recent deliveries to/.test((await owner.get('/admin/webhooks')).text) ? true : undefined,
  );
  assert.match(visible(owner.last!.text), /topic\.created/);
  await waitFor(() =>
    receiver.at('/hamlet-hook').some((r) => r.body.includes('A topic for the webhook log'))
      ? true
      : undefined,
  );

  const id = (await h.services.webhooks.list(system, acme))[0]!.id;
  const asks = await owner.post('/admin/webhooks/delete', { webhook: id });
  assert.match(visible(asks.text), /Delete this webhook\?/);
  assert.equal((await h.services.webhooks.list(system, acme)).length, 1, 'not yet deleted');
  const gone = await owner.post('/admin/webhooks/delete', { webhook: id, confirm: 'yes' });
  assert.match(visible(gone.text), /The webhook was deleted/);
  assert.equal((await h.services.webhooks.list(system, acme)).length, 0);
});
