// Notifications reach people by e-mail: a reply to my topic arrives through a real SMTP server as a
// mail naming who replied, linking to the reply, threaded by topic and unsubscribable in one click;
// "never" sends nothing, "daily" waits for the digest.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PersonActor } from '../../src/domain/actor.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { operationNamed } from '../../src/operations/catalogue.ts';
import { Pipeline, type Caller } from '../../src/operations/pipeline.ts';
import type { Community } from '../../src/store/types.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { waitFor } from '../helpers/wait.ts';

const system = systemActor('test');
const PASSWORD = 'a long enough password';
let h: TestHamlet;
let sink: SmtpSink;
let acme: Community;
let pipeline: Pipeline;

before(async () => {
  sink = await startSmtpSink();
  h = await startTestHamlet({ HAMLET_SMTP_URL: sink.url }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
  pipeline = new Pipeline(
    h.services,
    {
      mcp: (s) => `http://${s}.localhost/api/mcp`,
      web: (s) => `http://${s}.localhost`,
      inPathForm: (v) => v,
      listsPathForm: false,
    },
    h.logger,
  );
});
after(async () => {
  await h?.stop();
  await sink?.close();
});

async function person(email: string, name: string): Promise<PersonActor> {
  await h.services.accounts.createUser(system, { email, password: PASSWORD, name });
  const { token } = await h.services.accounts.signIn({ email, password: PASSWORD });
  return (await h.services.accounts.resolveWebSession(token))!;
}
const as = (who: PersonActor): Caller => ({ community: acme, ip: '127.0.0.1', person: who });
async function ok(name: string, caller: Caller, args: unknown = {}): Promise<any> {
  const outcome = await pipeline.invoke(operationNamed('community', name)!, caller, args);
  assert.ok(outcome.ok, `${name}: ${JSON.stringify(outcome)}`);
  return outcome.value;
}
let n = 0;
async function askAndGetReply(asker: PersonActor, replier: PersonActor) {
  const { topic } = await ok('create_topic', as(asker), {
    category: 'support',
    title: `Mailed question number ${++n}`,
    body: 'How long do the exports take?',
  });
  const { post } = await ok('reply_to_topic', as(replier), {
    topic: topic.id,
    body: 'About a minute per thousand topics.',
  });
  return { topic, post } as { topic: { id: string; slug: string }; post: { id: string } };
}
const emailState = async (topicId: string, recipient: PersonActor) =>
  (await h.store.notificationMail.pending(1000)).find(
    (x) => x.topicId === topicId && x.recipientId === recipient.personId,
  )?.emailState ?? 'not pending';

test('a reply to my topic is mailed to me: who, where, a link to the reply, threaded, one-click unsubscribe', async () => {
  const asker = await person('mail-asker@example.org', 'Mail Asker');
  const replier = await person('mail-replier@example.org', 'Ria Replier');
  const { topic, post } = await askAndGetReply(asker, replier);
  const mail = await sink.next('mail-asker@example.org', /replied to/);
  assert.equal(mail.subject, `[Acme] Ria Replier replied to “Mailed question number ${n}”`);
  assert.match(mail.text, new RegExp(`/t/${topic.slug}#post-${post.id}`));
  assert.match(mail.html, new RegExp(`href="[^"]+/t/${topic.slug}#post-${post.id}"`));
  assert.match(mail.header('references') ?? '', new RegExp(`<topic-${topic.id}@`));
  assert.match(mail.header('list-unsubscribe') ?? '', /^<http/);
  assert.equal(mail.header('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
  assert.equal(await emailState(topic.id, asker), 'not pending', 'settled');
  assert.ok(
    !sink.mails.some((m) => m.to === 'mail-replier@example.org' && /replied/.test(m.subject)),
    'the one who replied is not mailed about it',
  );
});

test('"never" mails nothing and "daily" leaves the notification for the digest', async () => {
  const asker = await person('mail-never@example.org', 'Nev Never');
  const daily = await person('mail-daily@example.org', 'Dee Daily');
  const replier = await person('mail-replier2@example.org', 'Rex Replier');
  await ok('set_notification_preferences', as(asker), { email_frequency: 'never' });
  await ok('set_notification_preferences', as(daily), { email_frequency: 'daily' });
  const quiet = await askAndGetReply(asker, replier);
  const later = await askAndGetReply(daily, replier);
  const settled = async (topicId: string, who: PersonActor) => {
    const rows = await h.store.community(acme.id).notifications.list(who.personId, { limit: 20 });
    return rows.items.find((r) => r.topicId === topicId)?.emailState;
  };
  assert.equal(
    await waitFor(async () => (await settled(quiet.topic.id, asker)) === 'skipped' || undefined),
    true,
  );
  assert.equal(
    await waitFor(async () => (await settled(later.topic.id, daily)) === 'digest' || undefined),
    true,
  );
  assert.ok(!sink.mails.some((m) => m.to === 'mail-never@example.org'));
  assert.ok(!sink.mails.some((m) => m.to === 'mail-daily@example.org'));
});

test('the mail carries the reply’s words: Markdown rendered in the HTML part, the quoted history trimmed', async () => {
  const asker = await person('mail-words@example.org', 'Wanda Words');
  const replier = await person('mail-words-replier@example.org', 'Quinn Quoter');
  const { topic } = await ok('create_topic', as(asker), {
    category: 'support',
    title: 'Which flag makes the export resumable?',
    body: 'The export stops halfway through on a large community.',
  });
  await ok('reply_to_topic', as(replier), {
    topic: topic.id,
    body: [
      'Run it with **--resume**: it starts again where it stopped.',
      '',
      '```',
      'hamlet export --resume',
      '```',
      '',
      'On Mon, 7 Dec 2026, Wanda Words wrote:',
      '> The export stops halfway through on a large community.',
      '> > and an older quote of a quote',
    ].join('\n'),
  });
  const mail = await sink.next('mail-words@example.org', /Quinn Quoter replied/);
  assert.match(mail.text, /Run it with \*\*--resume\*\*: it starts again where it stopped\./);
  assert.match(mail.text, /hamlet export --resume/);
  assert.match(mail.html, /<strong>--resume<\/strong>/);
  assert.match(mail.html, /<code>hamlet export --resume\s*<\/code>/);
  for (const part of [mail.text, mail.html]) {
    assert.doesNotMatch(part, /Wanda Words wrote/, 'the attribution of the quoted history is gone');
    assert.doesNotMatch(part, /older quote of a quote/, 'the quoted history is gone');
  }
});
