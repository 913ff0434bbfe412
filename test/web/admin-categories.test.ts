// The categories admin page over plain HTTP, as a browser without JavaScript uses it: linked from the
// administration navigation, administrators only; a category is added, changed, moved first in the
// order and deleted (its topics moved to another category first, an empty one at once), and a
// mistake is shown on the page with what to fix.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { visible, WebClient } from './client.ts';
import { writeApplied } from '../../src/domain/writes/applied.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';
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

const order = async () =>
  (await h.services.content.listCategories(system, acme)).map((c) => c.slug);

before(async () => {
  h = await startTestHamlet({ HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: '5000' }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(() => h.stop());

test('administrators manage categories on /admin/categories', async () => {
  const member = await signedIn('member@example.org', 'member');
  const refused = await member.get('/admin/categories');
  assert.equal(refused.status, 403);
  assert.match(visible(refused.text), /Only an administrator of "acme"/);

  const owner = await signedIn('owner@example.org', 'owner');
  const admin = await owner.get('/admin');
  assert.match(admin.text, /href="\/admin\/categories"/, 'linked from the administration pages');
  const listedPage = await owner.get('/admin/categories');
  assert.equal(listedPage.status, 200);
  assert.match(visible(listedPage.text), /1\. Support/);

  const bad = await owner.post('/admin/categories', { name: 'Billing', slug: 'Not A Slug' });
  assert.equal(bad.status, 400);
  assert.match(visible(bad.text), /slug ?: must be 1-80 characters/);
  const added = await owner.post('/admin/categories', {
    name: 'Billing',
    slug: '',
    description: 'Invoices and plans.',
    kind: 'discussion',
    approval_policy: 'approval',
    position: '',
  });
  assert.match(visible(added.text), /Category "Billing" added/);
  assert.equal((await order()).at(-1), 'billing');
  const billing = (await h.store.community(acme.id).categories.getBySlug('billing'))!;
  assert.equal(billing.approvalPolicy, 'approval');

  const moved = await owner.post('/admin/categories/update', {
    category: billing.id,
    name: 'Billing and plans',
    slug: 'billing',
    description: 'Invoices and plans.',
    kind: 'discussion',
    approval_policy: 'community',
    position: '1',
  });
  assert.match(visible(moved.text), /Category "Billing and plans" saved/);
  assert.equal((await order())[0], 'billing');
  assert.match(visible(moved.text), /1\. Billing and plans/);

  await writeApplied(h.services.writes, system, acme, 'topic.create', {
    category: 'billing',
    title: 'Charged twice in one month',
    body: 'The invoice shows the same plan twice.',
  });
  const page = await owner.get('/admin/categories');
  assert.match(visible(page.text), /Move its 1 topic to/);
  const gone = await owner.post('/admin/categories/delete', {
    category: billing.id,
    move_to: 'support',
  });
  assert.match(visible(gone.text), /Category "billing" deleted; its 1 topic moved to "support"/);
  assert.ok(!(await order()).includes('billing'));
  const topics = await h.services.content.listTopics(system, acme, { category: 'support' });
  assert.ok(topics.topics.some((t) => t.title === 'Charged twice in one month'));

  const empty = await h.services.categories.create(system, acme, { name: 'Empty' });
  const noMove = await owner.post('/admin/categories/delete', { category: empty.id });
  assert.match(visible(noMove.text), /Category "empty" deleted\./);
  const general = (await h.store.community(acme.id).categories.getBySlug('general'))!;
  const refusedDelete = await owner.post('/admin/categories/delete', { category: general.id });
  assert.equal(refusedDelete.status, 400);
  assert.match(visible(refusedDelete.text), /say where they go with move_to/);
});
