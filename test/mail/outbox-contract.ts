// The mail outbox and account tokens against a real engine (outbox-sqlite.test.ts and
// outbox-postgres.test.ts run it once per adapter): two dispatchers over two connections to one
// database never send the same mail, a lost lease resends under the same Message-ID, a permanent
// refusal fails with its reason (a refusal of the address counts a hard bounce), a stopping
// dispatcher gives a stalled send back after its grace (sent once by another), a token is spent
// once and not after it expires; hard bounces disable an address at the limit; digests fall due by
// each person's period and are settled once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../src/log.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { OpenedDatabase } from '../../src/store/open.ts';
import { Mailer } from '../../src/domain/mail/mailer.ts';
import { MailDispatcher } from '../../src/domain/mail/dispatcher.ts';
import type { MailSender, OutboundMail } from '../../src/outbound/mail-sender.ts';
import { waitFor } from '../helpers/wait.ts';

export type Factory = { open: () => Promise<OpenedDatabase>; cleanup?: () => Promise<void> };

const silent = createLogger('silent');

function recorder(sent: OutboundMail[], answer?: () => Promise<void>): MailSender {
  return {
    description: 'test',
    send: async (m) => {
      await answer?.();
      sent.push(m);
      return { ok: true, response: '250' };
    },
    close: () => undefined,
  };
}

export function defineOutboxContract(engine: string, factory: Factory): void {
  describe(`mail outbox contract (${engine})`, () => {
    let a: Store;
    let b: Store;
    let mailer: Mailer;
    before(async () => {
      a = (await factory.open()).store;
      b = (await factory.open()).store;
      mailer = new Mailer(a, { enabled: true, from: 'x@mail.test', origin: 'https://hamlet.test' });
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await factory.cleanup?.();
    });

    const dispatcher = (store: Store, sender: MailSender, timeoutMs = 5_000) =>
      new MailDispatcher({
        store,
        sender,
        from: 'x@mail.test',
        logger: silent,
        timeoutMs,
        retryBaseMs: 10,
        maxAttempts: 3,
        pollMs: 20,
        batch: 5,
      });

    test('two dispatchers over one database never send the same mail', async () => {
      const n = 60;
      await a.transaction(async (tx) => {
        for (let i = 0; i < n; i++)
          await mailer.queue(tx, {
            to: { email: `p${i}@example.org` },
            kind: 'account.verify',
            subject: `mail ${i}`,
            text: 'hello',
          });
      });
      const sent: OutboundMail[] = [];
      const slow = () => new Promise<void>((r) => setTimeout(r, 2));
      const one = dispatcher(a, recorder(sent, slow));
      const two = dispatcher(b, recorder(sent, slow));
      one.start();
      two.start();
      await waitFor(() => sent.length >= n, { timeoutMs: 30_000, message: `${n} mails sent` });
      await one.stop();
      await two.stop();
      const ids = sent.map((m) => m.messageId);
      assert.equal(new Set(ids).size, n, 'each mail sent once');
      assert.equal(ids.length, n);
      assert.equal((await a.mail.counts()).sent, n);
    });

    test('a lost lease sends again under the same Message-ID; a 5xx fails with its reason', async () => {
      const id = await a.transaction((tx) =>
        mailer.queue(tx, {
          to: { email: 'q@example.org' },
          kind: 'account.verify',
          subject: 'lease',
          text: 't',
        }),
      );
      const first = await a.mail.claim({ now: Date.now(), leaseMs: 50, limit: 1 });
      assert.equal(first.length, 1);
      // The claimer "crashed" after sending: the lease runs out and another claim takes it.
      assert.equal((await b.mail.claim({ now: Date.now(), leaseMs: 50, limit: 1 })).length, 0);
      const again = await b.mail.claim({ now: Date.now() + 100, leaseMs: 5_000, limit: 1 });
      assert.equal(again[0]!.mail.messageId, first[0]!.mail.messageId);
      assert.equal(again[0]!.mail.attempts, 2);
      assert.equal(await a.mail.finish(id!, first[0]!.leaseToken, { status: 'sent' }), false);
      assert.equal(await b.mail.finish(id!, again[0]!.leaseToken, { status: 'sent' }), true);

      const refused = await a.transaction((tx) =>
        mailer.queue(tx, {
          to: { email: 'r@example.org' },
          kind: 'account.verify',
          subject: 'no',
          text: 't',
        }),
      );
      const d = dispatcher(a, {
        description: 'refusing',
        send: async () => ({ ok: false, error: '550 no such user', permanent: true }),
        close: () => undefined,
      });
      assert.equal(await d.runOnce(), 1);
      const failed = (await a.mail.get(refused!))!;
      assert.equal(failed.status, 'failed');
      assert.match(failed.lastError!, /550 no such user Not retried/);
      assert.equal(await a.mail.retry(refused!), true);
      assert.equal((await a.mail.get(refused!))!.status, 'pending');
    });

    test('a stop interrupts a stalled send after its grace and gives the mail back, sent once later', async () => {
      const id = await a.transaction((tx) =>
        mailer.queue(tx, {
          to: { email: 'stall@example.org' },
          kind: 'account.verify',
          subject: 'stalled',
          text: 't',
        }),
      );
      // A server that never answers: the send ends only when the dispatcher's signal aborts it.
      let inFlight = 0;
      const stalling: MailSender = {
        description: 'stalling',
        send: (_m, signal) =>
          new Promise((resolve) => {
            inFlight++;
            signal?.addEventListener('abort', () =>
              resolve({ ok: false, error: 'aborted', permanent: false }),
            );
          }),
        close: () => undefined,
      };
      const stopping = dispatcher(a, stalling, 30_000);
      stopping.start();
      await waitFor(() => inFlight > 0 || undefined, { message: 'a send in flight' });
      const began = performance.now();
      await stopping.stop(200);
      const tookMs = performance.now() - began;
      assert.ok(tookMs >= 190 && tookMs < 2_000, `stopped after its grace: ${tookMs} ms`);
      const back = (await a.mail.get(id!))!;
      assert.equal(back.status, 'pending');
      assert.equal(back.attempts, 0, 'the interrupted claim is not counted');
      assert.ok(back.nextAttemptAt! <= Date.now(), 'due at once');
      // Another dispatcher (another instance) takes it at once, without waiting for a lease.
      const sent: OutboundMail[] = [];
      const next = dispatcher(b, recorder(sent));
      while ((await next.runOnce()) > 0);
      assert.equal(sent.filter((m) => m.subject === 'stalled').length, 1, 'sent once');
      const row = (await a.mail.get(id!))!;
      assert.deepEqual([row.status, row.attempts], ['sent', 1]);
      // A claim given back by another holder than the lease's changes nothing.
      assert.equal(await a.mail.release(id!, 'not-the-lease'), false);
    });

    test('an account token is spent once, and not after it expires', async () => {
      const person = await a.people.create({ displayName: 'T', email: 't@example.org' });
      const now = Date.now();
      await a.accountTokens.create({
        personId: person.id,
        purpose: 'reset',
        tokenHash: 'h1',
        email: 't@example.org',
        expiresAt: now + 1000,
      });
      await a.accountTokens.create({
        personId: person.id,
        purpose: 'reset',
        tokenHash: 'h2',
        email: 't@example.org',
        expiresAt: now + 1000,
      });
      assert.equal(
        await a.accountTokens.consume('h1', 'verify', now),
        undefined,
        'another purpose',
      );
      const [x, y] = await Promise.all([
        a.accountTokens.consume('h1', 'reset', now),
        b.accountTokens.consume('h1', 'reset', now),
      ]);
      assert.equal([x, y].filter(Boolean).length, 1, 'one spender wins');
      assert.equal(await a.accountTokens.consume('h2', 'reset', now + 1000), undefined, 'expired');
      await a.accountTokens.markVerified(person.id, 't@example.org');
      assert.equal(await a.accountTokens.verifiedEmail(person.id), 't@example.org');
    });

    test('hard bounces disable an address at the limit (any case); a 550 at send counts one', async () => {
      assert.equal(await a.mail.bounceState('b@example.org'), undefined);
      const one = await a.mail.recordHardBounce('B@Example.org', '5.1.1 unknown', 2);
      assert.equal(one.hardBounces, 1);
      assert.equal(one.disabledAt, null);
      const two = await b.mail.recordHardBounce('b@example.org', '5.1.1 still unknown', 2);
      assert.equal(two.hardBounces, 2);
      assert.ok(two.disabledAt);
      assert.equal((await a.mail.bounceState('b@EXAMPLE.org'))?.lastReason, '5.1.1 still unknown');
      await a.mail.clearBounces('b@example.org');
      assert.equal(await a.mail.bounceState('b@example.org'), undefined);

      const id = await a.transaction((tx) =>
        mailer.queue(tx, {
          to: { email: 'gone@example.org' },
          kind: 'account.verify',
          subject: 's',
          text: 't',
        }),
      );
      const mail = (await a.mail.get(id!))!;
      assert.equal((await b.mail.getByMessageId(mail.messageId))?.id, id);
      assert.equal(await a.mail.topicCommunity(mail.id), undefined, 'no such topic');
      const d = dispatcher(a, {
        description: 'refusing',
        send: async () => ({
          ok: false,
          error: '550 5.1.1 no such user',
          permanent: true,
          code: 550,
        }),
        close: () => undefined,
      });
      await d.runOnce();
      assert.equal((await a.mail.bounceState('gone@example.org'))?.hardBounces, 1);
    });

    test("digests fall due by each person's period and are settled once", async () => {
      const c = await a.communities.create({
        slug: `dg-${Date.now().toString(36)}`,
        name: 'D',
        visibility: 'public',
      });
      const daily = await a.people.create({ displayName: 'Day', email: `day-${c.slug}@x.org` });
      const weekly = await a.people.create({ displayName: 'Week', email: `week-${c.slug}@x.org` });
      const notes = a.community(c.id).notifications;
      await notes.setEmailPreference(daily.id, 'daily');
      await notes.setEmailPreference(weekly.id, 'weekly');
      const note = (recipientId: string, key: string, createdAt: string) => ({
        recipientId,
        kind: 'watched_topic',
        sourceKey: key,
        actor: { kind: 'person' as const, id: null, name: 'Ada' },
        title: key,
        createdAt,
      });
      await notes.add([
        note(daily.id, 'd-before', '2026-01-06T10:00:00.000Z'),
        note(daily.id, 'd-after', '2026-01-07T10:00:00.000Z'),
        note(weekly.id, 'w-before', '2026-01-04T10:00:00.000Z'),
        note(weekly.id, 'w-after', '2026-01-06T10:00:00.000Z'),
      ]);
      for (const n of await a.notificationMail.pending(1000))
        if (n.communityId === c.id) await a.notificationMail.settle(n.id, 'digest', n.createdAt);
      // Wednesday 7 January: the day began at 00:00, the week on Monday the 5th.
      const due = (
        await b.notificationMail.digestsDue({
          dayStart: '2026-01-07T00:00:00.000Z',
          weekStart: '2026-01-05T00:00:00.000Z',
          limit: 1000,
        })
      ).filter((d) => d.communityId === c.id);
      assert.deepEqual(
        due.map((d) => [d.recipientId, d.waiting]).sort(),
        [
          [daily.id, 1],
          [weekly.id, 1],
        ].sort(),
      );
      const items = await b
        .community(c.id)
        .notifications.waitingForDigest(daily.id, '2026-01-07T00:00:00.000Z', 100);
      assert.deepEqual(
        items.map((i) => [i.title, i.topicSlug]),
        [['d-before', null]],
      );
      const ids = items.map((i) => i.id);
      const at = new Date().toISOString();
      const [x, y] = await Promise.all([
        a.notificationMail.settleDigest(ids, at),
        b.notificationMail.settleDigest(ids, at),
      ]);
      assert.equal(x + y, 1, 'settled once');
      assert.equal(
        (
          await a
            .community(c.id)
            .notifications.waitingForDigest(daily.id, '2026-01-08T00:00:00.000Z', 100)
        )
          .map((i) => i.title)
          .join(),
        'd-after',
        'what came after the boundary waits for the next one',
      );
    });
  });
}
