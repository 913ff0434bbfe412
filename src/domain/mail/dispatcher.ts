// The mail dispatcher: claims due mails from the outbox (each by one instance, under a lease),
// sends each through the configured sender with its stored Message-ID, then marks it sent,
// schedules a retry with backoff and jitter (a temporary failure), or marks it failed (a permanent
// 5xx refusal, or attempts used up) with the reason; a refusal of the address itself (550, 551,
// 553) also counts a hard bounce for it (./bounces.ts). A dispatcher that dies between the send and the
// mark leaves its lease to expire; the mail is then sent once more, under the same Message-ID. A
// dispatcher that stops gives its sends in flight a bounded wait, then interrupts them and gives
// their claims back at once (attempt not counted): another instance sends them. The
// loop (poll, lease, wake on a local commit) is the one outbox worker's (src/outbound/outbox-worker.ts).
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { ClaimedMail, MailOutcome } from '../../store/mail.ts';
import type { MailSender, MailSendResult } from '../../outbound/mail-sender.ts';
import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from '../webhooks/backoff.ts';
import { ADDRESS_REFUSALS, recordHardBounce } from './bounces.ts';
import { OutboxWorker } from '../../outbound/outbox-worker.ts';

export type MailDispatcherDeps = {
  store: Store;
  sender: MailSender;
  from: string;
  logger: Logger;
  /** One send's deadline: the lease is twice it and a second. */
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  pollMs?: number;
  batch?: number;
  /** Work that turns into mail first at every turn (notifications to mail: ./notification-mails.ts). */
  beforeClaim?: () => Promise<unknown>;
};

export class MailDispatcher {
  private readonly policy: RetryPolicy;
  private readonly worker: OutboxWorker<ClaimedMail>;

  constructor(private readonly deps: MailDispatcherDeps) {
    this.policy = { ...DEFAULT_RETRY, baseMs: deps.retryBaseMs, maxAttempts: deps.maxAttempts };
    const leaseMs = deps.timeoutMs * 2 + 1_000;
    this.worker = new OutboxWorker<ClaimedMail>(
      {
        name: 'mail',
        claim: async (limit) => deps.store.mail.claim({ now: Date.now(), leaseMs, limit }),
        nextDue: async () => deps.store.mail.nextDue(),
        handle: async (claimed, signal) => this.deliver(claimed, signal),
        describe: (claimed) => ({ mail: claimed.mail.id }),
        beforeClaim: deps.beforeClaim,
      },
      { log: deps.logger, pollMs: deps.pollMs, batch: deps.batch },
    );
  }

  start(): void {
    this.worker.start();
  }

  /** Looks for work now (a local write just queued a mail). */
  wake(): void {
    this.worker.wake();
  }

  /**
   * Stops claiming at once; sends in flight get up to `graceMs` (default: their own timeout), then
   * are interrupted and left in the outbox, due at once for another instance.
   */
  async stop(graceMs?: number): Promise<void> {
    await this.worker.stop(graceMs);
    this.deps.sender.close();
  }

  /** Claims and sends one batch; returns how many mails it handled. */
  async runOnce(): Promise<number> {
    return this.worker.runOnce();
  }

  private async deliver({ mail, leaseToken }: ClaimedMail, signal: AbortSignal): Promise<void> {
    const { store, sender, logger } = this.deps;
    let result: MailSendResult;
    try {
      result = await sender.send(
        {
          from: this.deps.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
        },
        signal,
      );
    } catch (err) {
      result = {
        ok: false,
        error: err instanceof Error ? err.message : String(err),
        permanent: false,
      };
    }
    if (!result.ok && signal.aborted) {
      // Stopping: not sent (as far as the server said), so it goes back for another instance.
      await store.mail.release(mail.id, leaseToken);
      logger.info(
        { event: 'mail.interrupted', mail: mail.id, kind: mail.kind },
        'mail send interrupted by the stop; left in the outbox for another instance',
      );
      return;
    }
    const outcome = this.outcomeOf(mail.attempts, result);
    if (outcome.status === 'sent')
      logger.info({ event: 'mail.sent', mail: mail.id, kind: mail.kind }, 'mail sent');
    else
      logger.warn(
        {
          event: `mail.${outcome.status}`,
          mail: mail.id,
          kind: mail.kind,
          error: outcome.lastError,
        },
        outcome.status === 'failed' ? 'mail failed' : 'mail send failed; will retry',
      );
    if (!(await store.mail.finish(mail.id, leaseToken, outcome)))
      logger.warn({ mail: mail.id }, 'mail lease expired before the send finished');
    else if (!result.ok && result.code && ADDRESS_REFUSALS.includes(result.code))
      await recordHardBounce(store, logger, mail.to, result.error);
  }

  private outcomeOf(attempt: number, r: MailSendResult): MailOutcome {
    if (r.ok) return { status: 'sent' };
    if (r.permanent)
      return {
        status: 'failed',
        lastError: `${r.error} Not retried: the mail server refused it for good.`,
      };
    const delay = retryDelayMs(attempt, this.policy);
    if (delay === null)
      return { status: 'failed', lastError: `${r.error} Gave up after ${attempt} attempts.` };
    return { status: 'pending', nextAttemptAt: Date.now() + delay, lastError: r.error };
  }
}
