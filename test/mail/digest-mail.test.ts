// Digests through a real SMTP server: a person who chose a daily digest and watches a category gets
// nothing at once; after the day's boundary one mail arrives with the new topics, the solved
// questions and what was addressed to them, linked, with a one-click unsubscribe; a second pass
// sends nothing; what was written after the boundary waits for the next one. Weekly digests wait
// for Monday 00:00 UTC. A private community's digest never reaches someone no longer a member.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PersonActor } from '../../src/domain/actor.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { MailDigests, periodStart } from '../../src/domain/mail/digests.ts';
import { operationNamed } from '../../src/operations/catalogue.ts';
import { Pipeline, type Caller } from '../../src/operations/pipeline.ts';
import type { Community } from '../../src/store/types.ts';
import { loadConfig, type Config } from '../../src/config/config.ts';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { waitFor } from '../helpers/wait.ts';

const system = systemActor('test');
const PASSWORD = 'a long enough password';
const DAY = 86_400_000;
let h: TestHamlet;
let sink: SmtpSink;
let acme: Community;
let pipeline: Pipeline;
let config: Config;

before(async () => {
  sink = await startSmtpSink();
  h = await startTestHamlet({ HAMLET_SMTP_URL: sink.url }, { demo: true });
  acme = (await h.store.communities.getBySlug('acme'))!;
  config = loadConfig({ PORT: String(h.port), HOST: '127.0.0.1' });
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
const digestsAt = (at: number) =>
  new MailDigests({
    store: h.store,
    mail: h.services.mail,
    config,
    logger: h.logger,
    now: () => at,
  });
const states = async (who: PersonActor) =>
  (await h.store.community(acme.id).notifications.list(who.personId, { limit: 100 })).items.map(
    (n) => n.emailState,
  );
const waiting = async (who: PersonActor) =>
  (await states(who)).filter((s) => s === 'digest').length;
/** Resolves once the dispatcher handed every notification of the person to the digest. */
const handedOver = (who: PersonActor, count: number) =>
  waitFor(async () => {
    const s = await states(who);
    return !s.includes('pending') && s.filter((x) => x === 'digest').length >= count
      ? true
      : undefined;
  });

test('periods begin at 00:00 UTC each day and on Monday 00:00 UTC each week', () => {
  const wednesday = Date.parse('2026-12-02T15:30:00Z');
  assert.equal(new Date(periodStart('daily', wednesday)).toISOString(), '2026-12-02T00:00:00.000Z');
  assert.equal(
    new Date(periodStart('weekly', wednesday)).toISOString(),
    '2026-11-30T00:00:00.000Z',
  );
  const monday = Date.parse('2026-11-30T00:00:00Z');
  assert.equal(periodStart('weekly', monday), monday);
  assert.equal(periodStart('weekly', monday - 1), monday - 7 * DAY);
});

test('a daily digest: one mail after the boundary with new topics, solved questions and replies; sent once', async () => {
  const reader = await person('digest-reader@example.org', 'Dora Digest');
  const writer = await person('digest-writer@example.org', 'Walt Writer');
  await ok('set_notification_preferences', as(reader), { email_frequency: 'daily' });
  await ok('set_watch_level', as(reader), { category: 'support', level: 'watch' });
  const topics = [];
  for (const title of ['Digest topic one is here', 'Digest topic two is here'])
    topics.push(
      (
        await ok('create_topic', as(writer), {
          category: 'support',
          title,
          body: 'Something to read in the digest.',
        })
      ).topic,
    );
  const mine = (
    await ok('create_topic', as(reader), {
      category: 'support',
      title: 'My own digest question',
      body: 'Does anyone know?',
    })
  ).topic;
  const { post } = await ok('reply_to_topic', as(writer), { topic: mine.id, body: 'I know.' });
  const helper = await person('digest-helper@example.org', 'Hal Helper');
  const answer = (
    await ok('reply_to_topic', as(helper), { topic: topics[0].id, body: 'Try turning it off.' })
  ).post;
  await ok('mark_solution', as(writer), { topic: topics[0].id, post: answer.id });
  // Nothing at once: the notifications wait for the digest.
  await handedOver(reader, 5);
  assert.equal(await digestsAt(Date.now()).pass(), 0, 'not before the period ends');
  assert.ok(!sink.mails.some((m) => m.to === 'digest-reader@example.org'));

  const tomorrow = periodStart('daily', Date.now()) + DAY + 60_000;
  assert.equal(await digestsAt(tomorrow).pass(), 1);
  const mail = await sink.next('digest-reader@example.org', /digest/);
  assert.equal(mail.subject, '[Acme] Your daily digest: 2 new topics, 1 solved, 2 for you');
  assert.match(mail.text, /Solved \(1\)\n- “Digest topic one is here”/);
  assert.match(mail.text, /New topics \(2\)/);
  assert.match(
    mail.text,
    /“Digest topic one is here”\n {2}http:\/\/acme\.[^\s]+\/t\/digest-topic-one/,
  );
  assert.match(mail.text, /For you \(2\)\n- Walt Writer replied to “My own digest question”/);
  assert.match(mail.text, new RegExp(`#post-${post.id}`));
  assert.match(mail.html, /<h2>New topics \(2\)<\/h2>/);
  assert.match(
    mail.header('list-unsubscribe') ?? '',
    /mail\/unsubscribe\?.*k=notification\.digest/,
  );
  assert.match(mail.text, /No more digests: http/);
  assert.equal(await waiting(reader), 0, 'settled with the mail');
  assert.equal(await digestsAt(tomorrow).pass(), 0, 'sent once');
  await new Promise((r) => setImmediate(r));
  assert.equal(sink.mails.filter((m) => m.to === 'digest-reader@example.org').length, 1);
});

test('a weekly digest waits for Monday; unsubscribing in one click stops digests', async () => {
  const reader = await person('weekly-reader@example.org', 'Wendy Weekly');
  const writer = await person('weekly-writer@example.org', 'Will Writer');
  await ok('set_notification_preferences', as(reader), { email_frequency: 'weekly' });
  await ok('set_watch_level', as(reader), { category: 'support', level: 'watch' });
  await ok('create_topic', as(writer), {
    category: 'support',
    title: 'A topic for the weekly digest',
    body: 'Weekly reading.',
  });
  await handedOver(reader, 1);
  const nextMonday = periodStart('weekly', Date.now()) + 7 * DAY + 1_000;
  const run = await digestsAt(Math.max(Date.now(), nextMonday - DAY)).pass();
  assert.equal(
    sink.mails.filter((m) => m.to === 'weekly-reader@example.org').length,
    0,
    `not before Monday (${run} digests of others)`,
  );
  await digestsAt(nextMonday).pass();
  const mail = await sink.next('weekly-reader@example.org', /weekly digest/);
  assert.match(mail.subject, /Your weekly digest: 1 new topic$/);
  const unsubscribe = /<([^>]+)>/.exec(mail.header('list-unsubscribe') ?? '')![1]!;
  const url = new URL(unsubscribe);
  assert.equal(await h.services.mail.unsubscribe(Object.fromEntries(url.searchParams)), true);
  await ok('create_topic', as(writer), {
    category: 'support',
    title: 'Another topic for the weekly digest',
    body: 'More weekly reading.',
  });
  await handedOver(reader, 1);
  await digestsAt(nextMonday + 7 * DAY).pass();
  const queued = await h.store.mail.list({ limit: 100 });
  assert.equal(
    queued.items.filter((m) => m.to === 'weekly-reader@example.org').length,
    1,
    'unsubscribed: no second digest queued',
  );
  assert.equal(await waiting(reader), 0, 'the waiting notifications are settled, not kept');
});

test('a private community’s digest never reaches someone who is no longer a member', async () => {
  const skunkworks = (await h.store.communities.getBySlug('skunkworks'))!;
  const inSkunkworks = (who: PersonActor): Caller => ({
    community: skunkworks,
    ip: '127.0.0.1',
    person: who,
  });
  const withRoles = async (who: PersonActor): Promise<PersonActor> => ({
    ...who,
    roles: await h.services.auth.rolesOf(who.personId),
  });
  const email = 'digest-leaver@example.org';
  await person(email, 'Lena Leaver');
  await person('digest-insider@example.org', 'Ivo Insider');
  for (const who of [email, 'digest-insider@example.org'])
    await h.services.accounts.addMember(system, skunkworks, { email: who, role: 'member' });
  const signIn = async (e: string) => {
    const { token } = await h.services.accounts.signIn({ email: e, password: PASSWORD });
    return withRoles((await h.services.accounts.resolveWebSession(token))!);
  };
  const leaver = await signIn(email);
  const insider = await signIn('digest-insider@example.org');
  const category = (await h.store.community(skunkworks.id).categories.listWithCounts())[0]!.slug;
  await ok('set_notification_preferences', inSkunkworks(leaver), { email_frequency: 'daily' });
  await ok('set_watch_level', inSkunkworks(leaver), { category, level: 'watch' });
  await ok('create_topic', inSkunkworks(insider), {
    category,
    title: 'Secret roadmap for the launch',
    body: 'Only members may read this.',
  });
  const scope = h.store.community(skunkworks.id);
  const statesHere = async () =>
    (await scope.notifications.list(leaver.personId, { limit: 100 })).items.map(
      (n) => n.emailState,
    );
  await waitFor(async () => ((await statesHere()).includes('digest') ? true : undefined));

  await h.services.accounts.removeMember(system, skunkworks, { email });
  const tomorrow = periodStart('daily', Date.now()) + DAY + 60_000;
  await digestsAt(tomorrow).pass();
  assert.ok(!(await statesHere()).includes('digest'), 'the waiting notification is settled');
  assert.ok(!(await statesHere()).includes('sent'), 'and not as sent');
  const queued = await h.store.mail.list({ communityId: skunkworks.id, limit: 100 });
  assert.ok(
    !queued.items.some((m) => m.to.includes(email)),
    'no mail of the private community was queued for them',
  );
  assert.ok(!sink.mails.some((m) => m.to === email));
});
