// The mail outbox and account tokens against a real engine (outbox-sqlite.test.ts and
// outbox-postgres.test.ts run it once per adapter): two dispatchers over two connections to one
// database never send the same mail, a lost lease resends under the same Message-ID, a permanent
// refusal fails with its reason, and a token is spent once and not after it expires.
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

export function defineOutboxSuite(engine: string, factory: Factory): void {
  describe(`mail outbox (${engine})`, () => {
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
  });
}
