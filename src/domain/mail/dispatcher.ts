// The mail dispatcher: claims due mails from the outbox (each by one instance, under a lease),
// sends each through the configured sender with its stored Message-ID, then marks it sent,
// schedules a retry with backoff and jitter (a temporary failure), or marks it failed (a permanent
// 5xx refusal, or attempts used up) with the reason; a refusal of the address itself (550, 551,
// 553) also counts a hard bounce for it (./bounces.ts). A dispatcher that dies between the send and the
// mark leaves its lease to expire; the mail is then sent once more, under the same Message-ID. It
// polls every second and wakes at once when a local write queued a mail.
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { ClaimedMail, MailOutcome } from '../../store/mail.ts';
import type { MailSender, MailSendResult } from '../../outbound/mail-sender.ts';
import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from '../webhooks/backoff.ts';
import { ADDRESS_REFUSALS, recordHardBounce } from './bounces.ts';

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
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private readonly policy: RetryPolicy;
  private readonly pollMs: number;
  private readonly batch: number;

  constructor(private readonly deps: MailDispatcherDeps) {
    this.policy = { ...DEFAULT_RETRY, baseMs: deps.retryBaseMs, maxAttempts: deps.maxAttempts };
    this.pollMs = deps.pollMs ?? 1_000;
    this.batch = deps.batch ?? 10;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks for work now (a local write just queued a mail). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Stops claiming; sends in flight finish (their timeout bounds the wait). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.deps.sender.close();
  }

  /** Claims and sends one batch; returns how many mails it handled. */
  async runOnce(): Promise<number> {
    await this.deps.beforeClaim?.();
    const claimed = await this.deps.store.mail.claim({
      now: Date.now(),
      leaseMs: this.deps.timeoutMs * 2 + 1_000,
      limit: this.batch,
    });
    await Promise.all(
      claimed.map((c) =>
        this.deliver(c).catch((err: unknown) =>
          this.deps.logger.error({ err, mail: c.mail.id }, 'mail send failed unexpectedly'),
        ),
      ),
    );
    return claimed.length;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let handled = 0;
      try {
        handled = await this.runOnce();
      } catch (err) {
        this.deps.logger.warn({ err }, 'mail dispatcher could not claim mails');
      }
      if (handled < this.batch && this.running) {
        const due = await this.deps.store.mail.nextDue().catch(() => null);
        const wait =
          due === null ? this.pollMs : Math.max(10, Math.min(this.pollMs, due - Date.now()));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeUp = undefined;
      }
    }
  }

  private async deliver({ mail, leaseToken }: ClaimedMail): Promise<void> {
    const { store, sender, logger } = this.deps;
    let result: MailSendResult;
    try {
      result = await sender.send({
        from: this.deps.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        headers: mail.headers,
      });
    } catch (err) {
      result = {
        ok: false,
        error: err instanceof Error ? err.message : String(err),
        permanent: false,
      };
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
