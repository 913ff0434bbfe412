// Daily and weekly digests: a notification of someone whose e-mail frequency is daily or weekly
// waits (`digest`, ./notification-mail.ts); a pass here finds who is due (their period began after
// it waited) and sends each one digest per community (./digest-mail.ts, a use case of the one write
// runner: the mail queued and the notifications settled in one transaction, so a digest is sent
// once even with several instances; notifications after the boundary wait for the next one).
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import { systemActor } from '../actor.ts';
import type { UrlConfig } from '../urls.ts';
import { bareRunner } from '../writes/bare-runner.ts';
import type { WriteRunner } from '../writes/runner.ts';
import { digestMail, DigestTaken, periodStart } from './digest-mail.ts';
import type { MailService } from './service.ts';

export {
  DIGEST_KIND,
  DIGEST_SECTION_ENTRIES,
  periodStart,
  type DigestPeriod,
} from './digest-mail.ts';

export type DigestDeps = {
  store: Store;
  mail: MailService;
  config: UrlConfig;
  logger: Logger;
  /** The clock (tests move it past a boundary). */
  now?: () => number;
  /** The one write runner (absent: one over the bare store, ../writes/bare-runner.ts). */
  runner?: WriteRunner;
};

/** Who sends the digests. */
const DIGEST_PASS = systemActor('mail');

export class MailDigests {
  private readonly write: ReturnType<typeof digestMail>;
  private readonly runner: WriteRunner;

  constructor(private readonly deps: DigestDeps) {
    this.write = digestMail(deps.mail, deps.config);
    this.runner = deps.runner ?? bareRunner(deps.store);
  }

  /** Sends the digests that are due; returns how many mails it queued. */
  async pass(limit = 20): Promise<number> {
    const { store } = this.deps;
    const now = (this.deps.now ?? Date.now)();
    const due = await store.notificationMail.digestsDue({
      dayStart: new Date(periodStart('daily', now)).toISOString(),
      weekStart: new Date(periodStart('weekly', now)).toISOString(),
      limit,
    });
    let queued = 0;
    for (const d of due) {
      try {
        if (await this.send(d.communityId, d.recipientId, now)) queued++;
      } catch (err) {
        this.deps.logger.error({ err, person: d.recipientId }, 'a digest mail failed');
      }
    }
    return queued;
  }

  private async send(communityId: string, personId: string, now: number): Promise<boolean> {
    const payload = { communityId, personId, now };
    return this.runner.run(this.write, DIGEST_PASS, null, payload).catch((err: unknown) => {
      if (err instanceof DigestTaken) return false;
      throw err;
    });
  }
}
