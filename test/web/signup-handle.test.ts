// A handle chosen at sign-up: the sign-up form takes an optional @handle; it becomes the person's
// (lower-cased), a taken one is refused with what to do (whoever has the address, so the answer
// still tells nothing of addresses), and left empty one is made from the name.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { visible, WebClient } from './client.ts';

const PASSWORD = 'correct horse battery';
let h: TestHamlet;
before(async () => {
  h = await startTestHamlet();
});
after(() => h?.stop());

async function signUp(fields: Record<string, string>) {
  const client = new WebClient(h.hostUrl('localhost', ''));
  const form = await client.get('/signup');
  assert.match(form.text, /name="handle"/);
  return client.post('/signup', { password: PASSWORD, ...fields });
}

test('the handle chosen at sign-up is the person’s; a taken one is refused clearly; none made from the name', async () => {
  const done = await signUp({ name: 'Dana K', email: 'dana-k@example.org', handle: 'Dana_K' });
  assert.equal(done.status, 200);
  assert.equal((await h.store.people.getByEmail('dana-k@example.org'))?.handle, 'dana_k');

  const taken = await signUp({ name: 'Other', email: 'other@example.org', handle: 'dana_k' });
  assert.equal(taken.status, 409);
  assert.match(visible(taken.text), /The handle "@dana_k" is taken\. Choose another one/);
  assert.equal(await h.store.people.getByEmail('other@example.org'), undefined);

  const bad = await signUp({ name: 'Bad', email: 'bad@example.org', handle: 'no spaces!' });
  assert.equal(bad.status, 400);
  assert.match(visible(bad.text), /a handle is 2-30 characters/);

  await signUp({ name: 'Nora Nohandle', email: 'nora@example.org', handle: '' });
  assert.match((await h.store.people.getByEmail('nora@example.org'))?.handle ?? '', /^nora/);
});
