// Mail throughput and the cost of a digest, on a SQLite file, against an smtp-server sink on
// loopback (it counts messages, parses nothing). Measured in the same run:
//   queued/s     Mailer.queue, one mail per transaction (as a write queues its mail)
//   sent/s       the MailDispatcher draining the outbox through nodemailer to the sink (claim,
//                send with the stored Message-ID, mark sent), batch 10 in flight
//   reference/s  raw nodemailer sendMail (pooled, as the sender) of the same mails, 10 in flight, no
//                database: the ratio sent/reference is what the outbox costs
//   digest       a daily digest of `topics` new topics in a watched category: ms and statements
//                (MailDigests.pass: find who is due, read, queue one mail, settle them all)
//
//   node --import tsx bench/mail.ts [--mails=2000] [--topics=1000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countStatements } from './lib/query-counter.ts';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { readOptions } from './lib/options.ts';
import { createLogger } from '../src/log.ts';
import { openDatabase } from '../src/store/open.ts';
import { Mailer } from '../src/domain/mail/mailer.ts';
import { MailDispatcher } from '../src/domain/mail/dispatcher.ts';
import { MailDigests, periodStart } from '../src/domain/mail/digests.ts';
import { MailService } from '../src/domain/mail/service.ts';
import { createMailSender } from '../src/outbound/mail-sender.ts';

const opts = readOptions({
  mails: { default: '2000', help: 'mails queued, then sent, then sent raw' },
  topics: { default: '1000', help: 'new topics in the digest' },
});
const MAILS = Number(opts.mails);
const TOPICS = Number(opts.topics);
const logger = createLogger('silent');

let received = 0;
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _s, done) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      received++;
      done();
    });
  },
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
const port = (sink.server.address() as { port: number }).port;
const url = `smtp://127.0.0.1:${port}`;

const dir = mkdtempSync(join(tmpdir(), 'hamlet-mail-bench-'));
const { store } = await openDatabase(`sqlite:${join(dir, 'bench.db')}`);
const mailer = new Mailer(store, {
  enabled: true,
  from: 'Hamlet <mail@bench.test>',
  origin: 'http://localhost',
});
const text = 'Someone replied to your topic.\n\nOpen it: http://acme.localhost/t/x#post-1\n';
const html = `<!doctype html><html><body><p>${text}</p></body></html>`;
const until = async (n: number, timeoutMs = 120_000) => {
  const deadline = Date.now() + timeoutMs;
  while (received < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  if (received < n) throw new Error(`only ${received} of ${n} mails arrived`);
};

// Queued per second.
let t = performance.now();
for (let i = 0; i < MAILS; i++)
  await store.transaction((tx) =>
    mailer.queue(tx, {
      to: { email: `p${i}@example.org` },
      kind: 'account.verify',
      subject: `Mail ${i}`,
      text,
      html,
    }),
  );
const queuedPerS = MAILS / ((performance.now() - t) / 1000);

// Sent per second by the dispatcher.
const dispatcher = new MailDispatcher({
  store,
  sender: createMailSender(url, { timeoutMs: 10_000 }),
  from: 'Hamlet <mail@bench.test>',
  logger,
  timeoutMs: 10_000,
  retryBaseMs: 1_000,
  maxAttempts: 3,
  pollMs: 5,
  batch: 10,
});
t = performance.now();
dispatcher.start();
await until(MAILS);
const sentPerS = MAILS / ((performance.now() - t) / 1000);
await dispatcher.stop();

// The reference: nodemailer alone, 10 in flight.
const raw = nodemailer.createTransport({
  host: '127.0.0.1',
  port,
  secure: false,
  pool: true,
  maxConnections: 10,
  maxMessages: 1_000,
});
received = 0;
t = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: 10 }, async () => {
    while (next < MAILS) {
      const i = next++;
      await raw.sendMail({
        from: 'Hamlet <mail@bench.test>',
        to: `p${i}@example.org`,
        subject: `Mail ${i}`,
        text,
        html,
        messageId: `<raw-${i}@bench.test>`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    }
  }),
);
const referencePerS = MAILS / ((performance.now() - t) / 1000);
raw.close();

// A digest of TOPICS new topics in a watched category.
const community = await store.communities.create({
  slug: 'digest',
  name: 'Digest',
  visibility: 'public',
});
const scope = store.community(community.id);
const category = await scope.categories.create({ slug: 'news', name: 'News', kind: 'discussion' });
const reader = await store.people.create({ displayName: 'Reader', email: 'reader@example.org' });
const writer = await store.people.create({ displayName: 'Writer', email: 'writer@example.org' });
await scope.notifications.setEmailPreference(reader.id, 'daily');
const yesterday = new Date(periodStart('daily', Date.now()) - 3_600_000).toISOString();
await store.transaction(async (tx) => {
  const s = tx.community(community.id);
  for (let i = 0; i < TOPICS; i++) {
    const topic = await s.topics.create({
      categoryId: category.id,
      slug: `topic-${i}`,
      title: `New topic number ${i}`,
      author: { kind: 'person', id: writer.id, name: 'Writer' },
      createdAt: yesterday,
    });
    await s.notifications.add([
      {
        recipientId: reader.id,
        kind: 'watched_topic',
        sourceKey: `post:${topic.id}`,
        topicId: topic.id,
        actor: { kind: 'person', id: writer.id, name: 'Writer' },
        title: topic.title,
        createdAt: yesterday,
      },
    ]);
  }
});
for (const n of await store.notificationMail.pending(TOPICS + 10))
  await store.notificationMail.settle(n.id, 'digest', n.createdAt);
const digests = new MailDigests({
  store,
  mail: new MailService(store, mailer, url),
  config: { publicScheme: 'http', baseDomain: 'localhost', port: 80, publicOrigin: undefined },
  logger,
});
t = performance.now();
const { value: digestMails, statements } = await countStatements(() => digests.pass());
const digestMs = performance.now() - t;
const digest = (await store.mail.list({ limit: 1 })).items[0]!;

console.log(`mail bench: ${MAILS} mails, SQLite file, smtp-server sink on loopback`);
console.log(`  queued      ${queuedPerS.toFixed(0)} mails/s (one per transaction)`);
console.log(`  sent        ${sentPerS.toFixed(0)} mails/s (dispatcher, 10 in flight)`);
console.log(
  `  reference   ${referencePerS.toFixed(0)} mails/s (raw nodemailer, pooled, 10 in flight)`,
);
console.log(`  ratio       ${(sentPerS / referencePerS).toFixed(2)}× the reference`);
console.log(
  `  digest of ${TOPICS} new topics: ${digestMs.toFixed(0)} ms, ${statements.length} statements, ${digestMails} mail of ${(digest.text.length / 1024).toFixed(1)} KiB text + ${((digest.html ?? '').length / 1024).toFixed(1)} KiB HTML`,
);
await store.close();
await new Promise<void>((r) => sink.close(() => r()));
rmSync(dir, { recursive: true, force: true });
