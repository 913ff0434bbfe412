// Without HAMLET_SMTP_URL Hamlet runs, says once in the log that mail is off, queues nothing, tells
// administrators so on /admin/mail, and holds nobody back from posting (no address can be confirmed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import { startTestHamlet } from '../app/helpers.ts';
import { visible, WebClient } from '../web/client.ts';

test('with mail off: said once in the log and on the admin page; nothing queued; posting unaffected', async () => {
  const h = await startTestHamlet({}, { demo: true });
  try {
    assert.equal(h.logs.filter((l) => /mail is off/.test(l)).length, 1);
    const system = systemActor('test');
    const acme = (await h.store.communities.getBySlug('acme'))!;
    await h.services.accounts.createUser(system, {
      email: 'ad@example.org',
      password: 'correct horse battery',
    });
    await h.services.accounts.addMember(system, acme, { email: 'ad@example.org', role: 'admin' });
    const visitor = new WebClient(h.hostUrl('localhost', ''));
    await visitor.get('/signup');
    await visitor.post('/signup', {
      name: 'V',
      email: 'v@example.org',
      password: 'correct horse battery',
    });
    const v = (await h.store.people.getByEmail('v@example.org'))!;
    await h.services.accountLinks.requireMayPost(v.id, acme);
    assert.equal((await h.store.mail.counts()).pending, 0);
    const admin = new WebClient(h.hostUrl('acme.localhost', ''));
    await admin.get('/signin');
    await admin.post('/signin', {
      email: 'ad@example.org',
      password: 'correct horse battery',
      next: '/',
    });
    assert.match(
      visible((await admin.get('/admin/mail')).text),
      /Mail is off: HAMLET_SMTP_URL is not set/,
    );
    await visitor.get('/password/forgot');
    const asked = await visitor.post('/password/forgot', { email: 'v@example.org' });
    assert.equal(asked.status, 503);
    assert.match(visible(asked.text), /sends no e-mail/);
  } finally {
    await h.stop();
  }
});
