// Account mail end to end: a real Hamlet sending through a real SMTP server on loopback (the test's
// sink), each mail parsed as a mail client would. Sign-up mails a confirmation link (and an address
// that has an account gets a mail instead, the answer being the same); unconfirmed people may not
// post until they open it; a forgotten password is reset from the mailed link (every session ends;
// the link works once); an e-mail change is confirmed at the new address and told to the old; a
// notification mail threads and unsubscribes in one click; the admin page shows the queue; mails
// asked for on a community name it and link to it in the form used, and an unconfirmed member is
// told above the composer before writing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemActor } from '../../src/domain/actor.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { visible, WebClient } from '../web/client.ts';
import { waitFor } from '../helpers/wait.ts';

const system = systemActor('test');
const PASSWORD = 'correct horse battery';

describe('account mail through SMTP', () => {
  let h: TestHamlet;
  let sink: SmtpSink;
  let acme: Community;
  let apex: string;
  before(async () => {
    sink = await startSmtpSink();
    h = await startTestHamlet(
      { HAMLET_SMTP_URL: sink.url, HAMLET_MAIL_FROM: 'Hamlet <mail@hamlet.test>' },
      { demo: true },
    );
    acme = (await h.store.communities.getBySlug('acme'))!;
    apex = h.hostUrl('localhost', '');
  });
  after(async () => {
    await h?.stop();
    await sink?.close();
  });

  async function signUp(client: WebClient, email: string, password = PASSWORD) {
    await client.get('/signup');
    return client.post('/signup', { name: 'Dana', email, password });
  }

  async function signIn(client: WebClient, email: string, password = PASSWORD) {
    await client.get('/signin');
    return client.post('/signin', { email, password, next: '/account' });
  }

  test('sign-up mails a confirmation link; unconfirmed people read and sign in but do not post until they open it', async () => {
    const client = new WebClient(apex);
    const page = await signUp(client, 'dana@example.org');
    assert.equal(page.status, 200);
    const mail = await sink.next('dana@example.org', /Confirm your e-mail address/);
    assert.equal(mail.header('auto-submitted'), 'auto-generated');
    assert.equal(mail.header('list-unsubscribe'), undefined, 'account mails cannot be turned off');
    assert.match(mail.messageId, /^<[0-9a-f-]{36}@hamlet\.test>$/);
    assert.match(mail.html, /<a href="http:\/\/localhost:\d+\/email\/verify\?token=/);
    const queued = await waitFor(async () =>
      (await h.store.mail.list({ limit: 10 })).items.find(
        (m) => m.to === 'dana@example.org' && m.status === 'sent',
      ),
    );
    assert.equal(queued.messageId, mail.messageId, 'the outbox id is the Message-ID');

    assert.equal((await signIn(client, 'dana@example.org')).status, 200);
    const dana = (await h.store.people.getByEmail('dana@example.org'))!;
    await assert.rejects(h.services.accountLinks.requireMayPost(dana.id, acme), (err: Error) => {
      assert.match(err.message, /Confirm your e-mail address before posting in "acme"/);
      return true;
    });
    assert.match(visible((await client.get('/account')).text), /Not confirmed yet/);

    const link = new URL(linkIn(mail, '/email/verify'));
    await client.get(link.pathname + link.search);
    const done = await client.post('/email/verify', { token: link.searchParams.get('token')! });
    assert.match(visible(done.text), /dana@example\.org is confirmed/);
    await h.services.accountLinks.requireMayPost(dana.id, acme);
    // Spent: the same link is refused.
    const again = await client.post('/email/verify', { token: link.searchParams.get('token')! });
    assert.match(visible(again.text), /link is not valid: it was used already/);
  });

  test('sign-up with an address that has an account answers alike and mails its owner', async () => {
    await h.services.accounts.createUser(system, {
      email: 'owner@example.org',
      password: PASSWORD,
    });
    const fresh = visible((await signUp(new WebClient(apex), 'new@example.org')).text);
    const taken = visible(
      (await signUp(new WebClient(apex), 'owner@example.org', 'x'.repeat(12))).text,
    );
    // A new address is signed in; a taken one gets the sign-in page, which says nothing of it.
    assert.match(fresh, /Welcome, Dana: your account is open/);
    assert.match(taken, /Done: sign in with owner@example\.org and the password you chose/);
    const told = await sink.next('owner@example.org', /tried to sign up/);
    assert.match(told.text, /already has an account, which is unchanged/);
    assert.match(told.text, /\/password\/forgot/);
    assert.equal(
      sink.mails.filter((m) => m.to.includes('owner@') && /Confirm/.test(m.subject)).length,
      0,
    );
  });

  test('a forgotten password is reset from the mailed link: every session ends, the link works once', async () => {
    await h.services.accounts.createUser(system, {
      email: 'reset@example.org',
      password: PASSWORD,
    });
    const old = new WebClient(apex);
    await signIn(old, 'reset@example.org');
    assert.equal((await old.get('/account')).status, 200);

    const asker = new WebClient(apex);
    await asker.get('/password/forgot');
    const unknown = visible(
      (await asker.post('/password/forgot', { email: 'nobody@example.org' })).text,
    );
    await asker.get('/password/forgot');
    const known = visible(
      (await asker.post('/password/forgot', { email: 'reset@example.org' })).text,
    );
    assert.equal(unknown.replace('nobody@', 'reset@'), known, 'the same answer either way');
    const mail = await sink.next('reset@example.org', /Reset your password/);
    assert.equal(sink.mails.filter((m) => m.to.includes('nobody@')).length, 0);
    assert.match(mail.text, /works once, for 60 minutes/);

    const link = new URL(linkIn(mail, '/password/reset'));
    await asker.get(link.pathname + link.search);
    const token = link.searchParams.get('token')!;
    const done = await asker.post('/password/reset', { token, password: 'a new long password' });
    assert.match(visible(done.text), /every session of yours ended/);
    assert.equal((await old.get('/account')).status, 303, 'the old session ended');
    assert.equal((await signIn(new WebClient(apex), 'reset@example.org')).status, 401);
    const fresh = new WebClient(apex);
    await signIn(fresh, 'reset@example.org', 'a new long password');
    assert.equal((await fresh.get('/account')).status, 200);
    await asker.get(link.pathname + link.search);
    const twice = await asker.post('/password/reset', { token, password: 'yet another password' });
    assert.equal(twice.status, 400);
    assert.match(visible(twice.text), /used already, it expired/);
  });

  test('mails name the community and link to it, in the form the person used (path or host, with the port)', async () => {
    const byPath = new WebClient(`${apex}/c/acme`);
    await signUp(byPath, 'pathform@example.org');
    const verify = await sink.next('pathform@example.org', /Confirm your e-mail address/);
    assert.equal(verify.subject, 'Confirm your e-mail address for Acme');
    assert.match(verify.text, /Welcome to Acme\./);
    const link = new URL(linkIn(verify, '/email/verify'));
    assert.equal(`${link.origin}${link.pathname}`, `${apex}/c/acme/email/verify`);
    // Signed in at once, and told before writing that posting waits for the address.
    const told = /Before you can post in Acme, confirm your e-mail address/;
    assert.match(visible((await byPath.get('/ask')).text), told);
    const topic = visible((await byPath.get('/t/verifying-the-hamlet-signature-header')).text);
    assert.match(topic, told);
    await byPath.get(link.pathname.replace('/c/acme', '') + link.search);
    const done = await byPath.post('/email/verify', { token: link.searchParams.get('token')! });
    assert.match(visible(done.text), /pathform@example\.org is confirmed/);
    assert.doesNotMatch(visible((await byPath.get('/ask')).text), told);

    await h.services.accounts.createUser(system, {
      email: 'hostform@example.org',
      password: PASSWORD,
    });
    const byHost = new WebClient(h.hostUrl('acme.localhost', ''));
    await byHost.get('/password/forgot');
    await byHost.post('/password/forgot', { email: 'hostform@example.org' });
    const reset = await sink.next('hostform@example.org', /Reset your password/);
    assert.equal(reset.subject, 'Reset your password on Acme');
    assert.equal(
      new URL(linkIn(reset, '/password/reset')).origin,
      `http://acme.localhost:${h.port}`,
    );
    assert.doesNotMatch(reset.text, new RegExp(`//localhost:${h.port}/`), 'nothing on the apex');
  });

  test('the sign-in error points to /password/forgot', async () => {
    const res = await signIn(new WebClient(apex), 'reset@example.org', 'wrong password!');
    assert.match(visible(res.text), /get a new one at \/password\/forgot/);
    assert.doesNotMatch(res.text, /ask an administrator to reset/);
  });

  test('an e-mail change is confirmed at the new address and told to the old one', async () => {
    await h.services.accounts.createUser(system, { email: 'old@example.org', password: PASSWORD });
    const client = new WebClient(apex);
    await signIn(client, 'old@example.org');
    const asked = await client.post('/account/email', {
      new_email: 'moved@example.org',
      current_password: PASSWORD,
    });
    assert.match(visible(asked.text), /Open the link we mailed to moved@example\.org/);
    const mail = await sink.next('moved@example.org', /Confirm your new e-mail address/);
    const link = new URL(linkIn(mail, '/email/confirm'));
    await client.get(link.pathname + link.search);
    const done = await client.post('/email/confirm', { token: link.searchParams.get('token')! });
    assert.match(visible(done.text), /you sign in with moved@example\.org/);
    const told = await sink.next('old@example.org', /was changed/);
    assert.match(told.text, /is now moved@example\.org/);
    assert.equal((await signIn(new WebClient(apex), 'old@example.org')).status, 401);
    assert.equal((await signIn(new WebClient(apex), 'moved@example.org')).status, 200);
  });

  test('a notification mail threads by its topic and turns off in one click (RFC 8058)', async () => {
    const person = await h.services.accounts.createUser(system, {
      email: 'reader@example.org',
      password: PASSWORD,
    });
    const notify = (subject: string) =>
      h.store.transaction((tx) =>
        h.services.mail.queue(tx, {
          to: { personId: person.id, email: 'reader@example.org' },
          kind: 'notification.reply',
          subject,
          text: 'Someone replied.',
          html: '<p>Someone replied.</p>',
          communityId: acme.id,
          thread: 'topic-1234',
        }),
      );
    await notify('Re: the first');
    const mail = await sink.next('reader@example.org', /Re: the first/);
    assert.equal(mail.header('references'), '<topic-1234@hamlet.test>');
    assert.equal(mail.header('in-reply-to'), '<topic-1234@hamlet.test>');
    assert.equal(mail.header('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
    const url = /^<(.+)>$/.exec(mail.header('list-unsubscribe')!)![1]!;
    assert.match(url, /^http:\/\/localhost:\d+\/mail\/unsubscribe\?p=/);
    assert.equal(mail.parsed.text?.trim(), 'Someone replied.');
    assert.match(mail.html, /<p>Someone replied.<\/p>/);

    // A forged signature changes nothing; the mail client's one-click POST (no cookie, no form token) does.
    const forged = await fetch(url.replace(/s=[^&]+/, 's=forged'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(forged.status, 400);
    assert.ok(await notify('Re: the second'), 'still queued after a forged link');
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(res.status, 200);
    assert.equal(await notify('Re: the third'), null, 'not queued once turned off');
  });

  test("administrators see the community's queue and send a member a reset link", async () => {
    await h.services.accounts.createUser(system, { email: 'boss@example.org', password: PASSWORD });
    await h.services.accounts.addMember(system, acme, { email: 'boss@example.org', role: 'admin' });
    await h.services.accounts.createUser(system, {
      email: 'member@example.org',
      password: PASSWORD,
    });
    await h.services.accounts.addMember(system, acme, {
      email: 'member@example.org',
      role: 'member',
    });
    const admin = new WebClient(h.hostUrl('acme.localhost', ''));
    await signIn(admin, 'boss@example.org');
    const page = await admin.get('/admin/mail');
    assert.equal(page.status, 200);
    assert.match(visible(page.text), /Mail is on: it goes to smtp:\/\/127\.0\.0\.1:\d+/);
    const sent = await admin.post('/admin/mail/reset', { email: 'member@example.org' });
    assert.match(visible(sent.text), /A password reset link is on its way to member@example\.org/);
    await sink.next('member@example.org', /Reset your password/);
    const refused = await admin.post('/admin/mail/reset', { email: 'dana@example.org' });
    assert.equal(refused.status, 400);
    assert.match(visible(refused.text), /No member of "acme" has the e-mail/);
    const listed = visible((await admin.get('/admin/mail')).text);
    assert.match(
      listed,
      /member@example\.org Reset your password on localhost:\d+ account\.password_reset sent/,
    );
    assert.match(listed, /reader@example\.org/);
  });
});
