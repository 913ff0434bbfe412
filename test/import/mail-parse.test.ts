import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFrom, parseMessage } from '../../src/import/mail/message.ts';
import { decodeHeaderValue } from '../../src/import/mail/encoded-words.ts';
import { cleanBody, cleanSubject } from '../../src/import/mail/clean.ts';
import { threadMessages } from '../../src/import/mail/thread.ts';
import { splitMbox } from '../../src/import/mail/sources.ts';
import { parseInbound } from '../../src/import/mail/inbound.ts';
import { ReplyAddresses } from '../../src/domain/mail/reply-address.ts';
import type { Store } from '../../src/store/repositories.ts';
import { answer, followUp, noId, question, sameSubjectNewTopic } from './fixtures.ts';

test('multipart/alternative: the quoted-printable latin1 text part is chosen and decoded', () => {
  const m = parseMessage(question);
  assert.equal(m.key, '<q1@example.org>');
  assert.equal(m.subject, '[users] Café crème install fails');
  assert.deepEqual(m.from, { name: 'Renée Dupré', address: 'renee@example.org' });
  assert.equal(m.date, '2002-09-03T08:00:00.000Z');
  assert.equal(m.listId, 'users');
  assert.match(m.text, /The café installer stops with an error\. \r?\n/);
  assert.doesNotMatch(m.text, /<p>/);
});

test('base64 UTF-8 bodies, encoded-word subjects and quoted display names decode', () => {
  const m = parseMessage(answer);
  assert.equal(m.subject, 'Re: [users] Café crème install fails');
  assert.equal(m.from.name, 'Bob (Builder)');
  assert.deepEqual(m.parents, ['<q1@example.org>']);
  assert.match(m.text, /café machine ✓/);
});

test('windows-1252 8-bit bodies and "address (Name)" senders decode', () => {
  const m = parseMessage(followUp);
  assert.match(m.text, /thanks “Bob” – the disk/);
  assert.deepEqual(m.from, { name: 'Renee Dupre', address: 'renee@example.org' });
  assert.equal(m.subject, 'RE: [users] Café crème install fails');
});

test('RFC 2047: whitespace between adjacent encoded words is dropped, other text kept', () => {
  assert.equal(decodeHeaderValue('=?utf-8?Q?a?= =?utf-8?Q?b?= c =?ISO-8859-1?B?6Q==?='), 'ab c é');
  assert.equal(decodeHeaderValue('Hello =?koi8-r?B?8NLJ18XU?='), 'Hello Привет');
});

test('a message without Message-ID gets a stable content-hash key', () => {
  const a = parseMessage(noId);
  assert.match(a.key, /^sha256:[0-9a-f]{64}$/);
  assert.equal(parseMessage(noId).key, a.key);
  assert.equal(a.messageId, null);
});

test('senders never show an address as their name', () => {
  assert.deepEqual(parseFrom('jane.doe@example.org'), {
    name: 'jane.doe',
    address: 'jane.doe@example.org',
  });
  assert.deepEqual(parseFrom('"jane@example.org" <jane@example.org>'), {
    name: 'jane',
    address: 'jane@example.org',
  });
  assert.equal(parseFrom('').name, 'Unknown sender');
});

test('cleanup drops signatures, footers, trailing quotes, attributions and hides addresses', () => {
  const q = cleanBody(parseMessage(question).text);
  assert.match(q, /^The café installer stops with an error\.$/m);
  assert.match(q, /^\\# this shell comment/m, 'a leading # is escaped so it stays text');
  assert.match(q, /Mail me at renee@…\./);
  assert.doesNotMatch(q, /Paris|example\.org/);

  const a = cleanBody(parseMessage(answer).text);
  assert.equal(a, 'Run it with --verbose, it prints the cause. Works on my café machine ✓');

  const f = cleanBody(parseMessage(followUp).text);
  assert.equal(f, '> Run it with --verbose\nThat worked, thanks “Bob” – the disk was full.');
});

test('subjects lose reply prefixes and list tags', () => {
  assert.equal(cleanSubject('Re: RE: [users] Fwd: [ILUG] Hello  world'), 'Hello world');
  assert.equal(cleanSubject('[SAtalk] Re[2]: AW: test'), 'test');
});

test('threading follows references, then reply subjects; equal subjects without "Re:" stay apart', () => {
  const threads = threadMessages(
    [noId, followUp, sameSubjectNewTopic, answer, question].map(parseMessage),
  );
  const shape = threads.map((t) => t.messages.map((m) => m.key));
  assert.deepEqual(shape, [
    ['<q1@example.org>', '<a1@example.net>', '<q2@example.org>'],
    [parseMessage(noId).key],
    ['<w2@example.com>'],
  ]);
});

test('mbox files split on envelope lines only, unescaping >From', () => {
  const mbox = Buffer.from(
    'From a@x Thu Aug 22 12:36:23 2002\nSubject: one\n\nFrom here on, text.\n>From the body\n\n' +
      'From b@x Fri Aug 23 01:02:03 2002\nSubject: two\n\nbody\n',
    'latin1',
  );
  const parts = splitMbox(mbox).map((b) => b.toString('latin1'));
  assert.equal(parts.length, 2);
  assert.match(parts[0]!, /From here on, text\.\nFrom the body/);
  assert.equal(parseMessage(splitMbox(mbox)[1]!).subject, 'two');
});

test('NUL characters in mail are dropped (no database stores them alike), the rest is kept', () => {
  const m = parseMessage(
    Buffer.from(
      'From: Ada <ada@example.org>\nSubject: A NUL\u0000 here\nMessage-ID: <nul@example.org>\n\nBody with a \u0000 NUL.\n',
    ),
  );
  assert.equal(m.subject, 'A NUL here');
  assert.match(m.text, /^Body with a {2}NUL\.\s*$/);
  assert.equal(m.messageId, '<nul@example.org>');
});

test('a reply address on a dotless domain (a local run: hamlet+…@localhost) is found and checks', async () => {
  const replies = new ReplyAddresses('Hamlet <hamlet@localhost>', async () => 'k'.repeat(32));
  const via = undefined as unknown as Store; // the key above is loaded without the store
  const person = '0190a0a0-0000-7000-8000-000000000001';
  const topic = '0190a0a0-0000-7000-8000-000000000002';
  const address = await replies.address(via, person, topic);
  assert.match(address, /^hamlet\+[a-z2-7]+@localhost$/);
  const mail = parseInbound(
    Buffer.from(
      `From: Ria <ria@example.org>\r\nTo: Hamlet <${address}>\r\nSubject: Re: x\r\n\r\nThanks!\r\n`,
    ),
  );
  assert.ok(mail.recipients.includes(address), mail.recipients.join(', '));
  const picked = replies.pick(mail.recipients);
  assert.equal(picked, address);
  const checked = await replies.check(via, picked!);
  assert.deepEqual(checked.ok && [checked.personId, checked.topicId], [person, topic]);
});
