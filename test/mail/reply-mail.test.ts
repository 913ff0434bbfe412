// Reply by e-mail and bounces, end to end: a notification mail arrives through a real SMTP server
// with a Reply-To signed for its recipient and topic; the recipient's answer, piped into
// `hamlet mail receive` with its quote and signature, appears on the topic as them (once, however
// often the MTA delivers it); a forged or altered address, another sender, an expired address and
// an auto-reply are refused or dropped with their exit codes, and so is a reply to a private
// community's topic from someone who is no longer a member; delivery reports of hard bounces
// turn mail to the address off after HARD_BOUNCE_LIMIT and /account says so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PersonActor } from '../../src/domain/actor.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { HARD_BOUNCE_LIMIT } from '../../src/domain/mail/bounces.ts';
import { MailInbound } from '../../src/domain/mail/inbound.ts';
import { exitCodeOf } from '../../src/cli/mail.ts';
import { REPLY_ADDRESS_DAYS } from '../../src/domain/mail/reply-address.ts';
import { parseInbound } from '../../src/import/mail/inbound.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { runCli } from '../helpers/cli.ts';
import { startSmtpSink, type SmtpSink, type Received } from '../helpers/smtp-sink.ts';
import { waitFor } from '../helpers/wait.ts';
import { visible, WebClient } from '../web/client.ts';

const system = systemActor('test');
const PASSWORD = 'a long enough password';
const FROM = 'Hamlet <mail@hamlet.test>';
let h: TestHamlet;
let sink: SmtpSink;
let acme: Community;
let dir: string;
let env: Record<string, string>;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hamlet-reply-'));
  sink = await startSmtpSink();
  env = { DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`, HAMLET_MAIL_FROM: FROM };
  h = await startTestHamlet({ ...env, HAMLET_SMTP_URL: sink.url }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
});
after(async () => {
  await h?.stop();
  await sink?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function person(email: string, name: string): Promise<PersonActor> {
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
  return (await h.services.accounts.resolveWebSession(token))!;
}

let n = 0;
/** A topic by `asker`, a reply by `replier`: the asker's notification mail. */
async function notified(
  asker: PersonActor,
  askerEmail: string,
  replier: PersonActor,
  mailed = true,
) {
  const created = (await h.services.writes.execute(asker, acme, 'topic.create', {
    category: 'support',
    title: `Reply by mail topic ${++n}`,
    body: 'How do I rotate the keys?',
  })) as { status: string; result: { topic: { id: string } } };
  const topicId = created.result.topic.id;
  await h.services.writes.execute(replier, acme, 'post.create', {
    topic: topicId,
    body: 'Run hamlet keys rotate.',
  });
  const mail = mailed
    ? await sink.next(askerEmail, new RegExp(`replied to “Reply by mail topic ${n}”`))
    : undefined;
  return { topicId, mail: mail! };
}

/** What `hamlet mail receive` does, in this process (the CLI itself runs for a few cases). */
async function receive(message: string, now?: () => number) {
  const inbound = new MailInbound({
    store: h.store,
    mailer: h.services.mail.mailer,
    writes: h.services.writes,
    rolesOf: (id) => h.services.auth.rolesOf(id),
    logger: h.logger,
    now,
  });
  const result = await inbound.receive(parseInbound(Buffer.from(message)));
  return { result, code: exitCodeOf(result) };
}

function replyTo(mail: Received, from: string, to: string, extra = ''): string {
  return [
    `From: Someone <${from}>`,
    `To: ${to}`,
    `Subject: Re: ${mail.subject}`,
    `Message-ID: <reply-${Math.random().toString(36).slice(2)}@client.example>`,
    `In-Reply-To: ${mail.messageId}`,
    extra,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Thanks, that worked after a restart.',
    '',
    'On Tue, Hamlet wrote:',
    '> Ria replied to your topic.',
    '> Open it: http://example.org',
    '',
    '-- ',
    'Sent from my phone',
    '',
  ]
    .filter((l, i) => l !== '' || i > 5)
    .join('\r\n');
}

test('a reply to a notification mail is posted on the topic as its recipient, quote and signature removed', async () => {
  const asker = await person('reply-asker@example.org', 'Rae Asker');
  const replier = await person('reply-helper@example.org', 'Ria Helper');
  const { topicId, mail } = await notified(asker, 'reply-asker@example.org', replier);
  const address = /<?([^<>\s]+@[^<>\s]+)>?/.exec(mail.header('reply-to') ?? '')![1]!;
  assert.match(address, /^mail\+[a-z2-7]{71}@hamlet\.test$/, 'signed per person and topic');
  assert.match(mail.text, /Reply to this mail to post your answer/);

  const message = replyTo(mail, 'Reply-Asker@Example.org', address);
  const first = await runCli(['mail', 'receive'], env, message);
  assert.equal(first.code, 0, first.err);
  assert.match(first.out, /^posted [0-9a-f-]{36} in topic /);
  const posts = await h.store.community(acme.id).posts.listByTopic(topicId, { limit: 10 });
  const last = posts.items.at(-1)!;
  assert.equal(last.author.id, asker.personId, 'posted as the person');
  assert.equal(last.body, 'Thanks, that worked after a restart.');
  const again = await receive(message);
  assert.equal(again.code, 0);
  const after = await h.store.community(acme.id).posts.listByTopic(topicId, { limit: 10 });
  assert.equal(after.items.length, posts.items.length, 'delivered twice, posted once');

  // Forged: one letter of the token changed.
  const token = /\+([a-z2-7]+)@/.exec(address)![1]!;
  const altered = address.replace(
    token,
    token.slice(0, 20) + (token[20] === 'a' ? 'b' : 'a') + token.slice(21),
  );
  const forged = await runCli(
    ['mail', 'receive'],
    env,
    replyTo(mail, 'reply-asker@example.org', altered),
  );
  assert.equal(forged.code, 67);
  assert.match(forged.err, /refused \(forged\)/);
  assert.match(forged.err, /incoming mail refused/, 'logged');
  const stranger = await receive(replyTo(mail, 'mallory@evil.example', address));
  assert.equal(stranger.code, 77);
  assert.equal(stranger.result.outcome === 'refused' && stranger.result.reason, 'wrong_sender');
  const nowhere = await receive(replyTo(mail, 'reply-asker@example.org', 'someone@hamlet.test'));
  assert.equal(nowhere.code, 67);
  const vacation = await receive(
    replyTo(mail, 'reply-asker@example.org', address, 'Auto-Submitted: auto-replied'),
  );
  assert.equal(vacation.code, 0);
  assert.equal(vacation.result.outcome, 'ignored');
  const final = await h.store.community(acme.id).posts.listByTopic(topicId, { limit: 10 });
  assert.equal(final.items.length, posts.items.length, 'nothing else was posted');

  // Expired: the same address read REPLY_ADDRESS_DAYS + 1 days later.
  const expired = (await receive(message, () => Date.now() + (REPLY_ADDRESS_DAYS + 1) * 86_400_000))
    .result;
  assert.equal(expired.outcome === 'refused' && expired.reason, 'expired');
});

test('a reply by mail to a private community from someone no longer a member is refused, nothing posted', async () => {
  const skunkworks = (await h.store.communities.getBySlug('skunkworks'))!;
  const email = 'leaver@example.org';
  const leaver = await person(email, 'Lee Leaver');
  const insider = await person('insider@example.org', 'Ida Insider');
  for (const who of [email, 'insider@example.org'])
    await h.services.accounts.addMember(system, skunkworks, { email: who, role: 'member' });
  const roles = async (a: PersonActor): Promise<PersonActor> => ({
    ...a,
    roles: await h.services.auth.rolesOf(a.personId),
  });
  const created = (await h.services.writes.execute(
    await roles(leaver),
    skunkworks,
    'topic.create',
    {
      category: (await h.store.community(skunkworks.id).categories.listWithCounts())[0]!.slug,
      title: 'Private launch checklist',
      body: 'What is left before the launch?',
    },
  )) as { result: { topic: { id: string } } };
  const topicId = created.result.topic.id;
  await h.services.writes.execute(await roles(insider), skunkworks, 'post.create', {
    topic: topicId,
    body: 'The pricing page, still secret.',
  });
  const mail = await sink.next(email, /replied to “Private launch checklist”/);
  const address = /<?([^<>\s]+@[^<>\s]+)>?/.exec(mail.header('reply-to') ?? '')![1]!;

  await h.services.accounts.removeMember(system, skunkworks, { email });
  const before = await h.store.community(skunkworks.id).posts.listByTopic(topicId, { limit: 10 });
  const refused = await receive(replyTo(mail, email, address));
  assert.equal(refused.result.outcome, 'refused');
  assert.equal(refused.result.outcome === 'refused' && refused.result.reason, 'not_allowed');
  assert.equal(refused.code, 77);
  const after = await h.store.community(skunkworks.id).posts.listByTopic(topicId, { limit: 10 });
  assert.equal(after.items.length, before.items.length, 'nothing was posted');
});

function dsn(original: Received, recipient: string, status: string): string {
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mx.example.org>',
    'To: mail@hamlet.test',
    'Subject: Undelivered Mail Returned to Sender',
    `Message-ID: <dsn-${Math.random().toString(36).slice(2)}@mx.example.org>`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
    '',
    '--B',
    'Content-Type: text/plain',
    '',
    'Your message could not be delivered.',
    '--B',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.org',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    'Action: failed',
    `Status: ${status}`,
    'Diagnostic-Code: smtp; 550 5.1.1 <x>: Recipient address rejected: User unknown',
    '',
    '--B',
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: ${original.messageId}`,
    `To: ${recipient}`,
    `Subject: ${original.subject}`,
    '--B--',
    '',
  ].join('\r\n');
}

test(`after ${HARD_BOUNCE_LIMIT} hard bounces mail to the address is off, and /account says so`, async () => {
  const asker = await person('bouncing@example.org', 'Bo Bounce');
  const replier = await person('bounce-helper@example.org', 'Ben Helper');
  const { mail } = await notified(asker, 'bouncing@example.org', replier);
  const soft = await receive(dsn(mail, 'bouncing@example.org', '4.2.2'));
  assert.deepEqual(soft.result, { outcome: 'ignored', reason: 'no hard bounce in the report' });
  const notOurs = await receive(
    dsn({ ...mail, messageId: '<x@y>' }, 'bouncing@example.org', '5.1.1'),
  );
  assert.deepEqual(notOurs.result, {
    outcome: 'ignored',
    reason: 'a report about no mail of ours',
  });
  for (let i = 1; i < HARD_BOUNCE_LIMIT; i++)
    assert.deepEqual((await receive(dsn(mail, 'bouncing@example.org', '5.1.1'))).result, {
      outcome: 'bounce',
      counted: 1,
      disabled: 0,
    });
  const last = await runCli(['mail', 'receive'], env, dsn(mail, 'bouncing@example.org', '5.1.1'));
  assert.equal(last.code, 0, last.err);
  assert.match(last.out, /hard bounce counted \(1\); mail disabled for 1 address/);
  const state = await h.store.mail.bounceState('bouncing@example.org');
  assert.equal(state?.hardBounces, HARD_BOUNCE_LIMIT);
  assert.ok(state?.disabledAt);

  // No more notification mail to it.
  const before = (await h.store.mail.list({ limit: 200 })).items.filter(
    (m) => m.to === 'bouncing@example.org',
  ).length;
  await notified(asker, 'bouncing@example.org', replier, false);
  const settled = await waitFor(async () => {
    const rows = await h.store.community(acme.id).notifications.list(asker.personId, { limit: 5 });
    return rows.items.every((r) => r.emailState !== 'pending') || undefined;
  });
  assert.equal(settled, true);
  const afterCount = (await h.store.mail.list({ limit: 200 })).items.filter(
    (m) => m.to === 'bouncing@example.org',
  ).length;
  assert.equal(afterCount, before, 'nothing queued for a disabled address');

  const client = new WebClient(h.hostUrl('localhost', ''));
  await client.get('/signin');
  await client.post('/signin', {
    email: 'bouncing@example.org',
    password: PASSWORD,
    next: '/account',
  });
  const account = visible((await client.get('/account')).text);
  assert.match(
    account,
    new RegExp(`Mail to bouncing@example\\.org is off: it bounced ${HARD_BOUNCE_LIMIT} times`),
  );
});
