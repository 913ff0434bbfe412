// Notifications by e-mail. Each notification is written `pending` in the transaction of the write
// that caused it; a pass here looks at each once, by its recipient's e-mail frequency in that
// community (./notification-mail.ts, a use case of the one write runner: "immediately" queues one
// mail, settled `sent` in the mail's own transaction so that two instances never mail it twice;
// "never" settles it `skipped`; "daily" and "weekly" hand it to the digest). Nobody is mailed about
// a community they can no longer read, nor without an address.
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import { systemActor } from '../actor.ts';
import type { UrlConfig } from '../urls.ts';
import { bareRunner } from '../writes/bare-runner.ts';
import type { WriteRunner } from '../writes/runner.ts';
import { notificationMail } from './notification-mail.ts';
import type { MailService } from './service.ts';

export type NotificationMailDeps = {
  store: Store;
  mail: MailService;
  config: UrlConfig;
  logger: Logger;
  /** The one write runner (absent: one over the bare store, ../writes/bare-runner.ts). */
  runner?: WriteRunner;
};

/** Who settles notifications and queues their mails. */
const MAIL_PASS = systemActor('mail');

export { notificationSubject } from './notification-mail.ts';

export class NotificationMails {
  private readonly write: ReturnType<typeof notificationMail>;
  private readonly runner: WriteRunner;

  constructor(private readonly deps: NotificationMailDeps) {
    this.write = notificationMail(deps.mail, deps.config);
    this.runner = deps.runner ?? bareRunner(deps.store);
  }

  /** Looks at up to `limit` pending notifications; returns how many it settled. */
  async pass(limit = 50): Promise<number> {
    const { store } = this.deps;
    let settled = 0;
    for (const n of await store.notificationMail.pending(limit)) {
      try {
        if (await this.runner.run(this.write, MAIL_PASS, null, n)) settled++;
      } catch (err) {
        this.deps.logger.error({ err, notification: n.id }, 'a notification mail failed');
      }
    }
    return settled;
  }
}
