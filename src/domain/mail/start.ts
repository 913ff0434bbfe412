// Mail at start-up: with HAMLET_SMTP_URL unset, say once that mail is off (and start nothing);
// otherwise, where this instance dispatches, start the dispatcher over the configured sender
// (`log:` prints each mail to the log). Any number of instances may dispatch: each mail is claimed
// by one. Each turn of the dispatcher first turns pending notifications into mail, and at most
// every DIGEST_CHECK_MS sends the daily and weekly digests that fell due (./digests.ts).
import type { MailConfig } from '../../config/config.ts';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import { createMailSender, redact } from '../../outbound/mail-sender.ts';
import type { MailService } from './service.ts';
import { MailDispatcher } from './dispatcher.ts';
import { NotificationMails } from './notification-mails.ts';
import { MailDigests } from './digests.ts';
import type { UrlConfig } from '../urls.ts';
import type { WriteRunner } from '../writes/runner.ts';

/** How often a dispatcher looks for digests that fell due (a digest is late by at most this). */
export const DIGEST_CHECK_MS = 30_000;

export function startMail(deps: {
  store: Store;
  services: { mail: MailService; writes: { runner: WriteRunner } };
  config: MailConfig;
  urls: UrlConfig;
  logger: Logger;
}): MailDispatcher | undefined {
  const { store, services, config, logger } = deps;
  if (!config.smtpUrl) {
    logger.warn(
      { mail: 'off' },
      'mail is off: HAMLET_SMTP_URL is not set, so no mail is sent (no address verification, no password reset by e-mail)',
    );
    return undefined;
  }
  logger.info({ mail: redact(config.smtpUrl), from: config.from }, 'mail is on');
  if (!config.dispatch) return undefined;
  const sender = createMailSender(config.smtpUrl, {
    timeoutMs: config.timeoutMs,
    onLog: (m) =>
      logger.info(
        {
          mail: {
            to: m.to,
            subject: m.subject,
            messageId: m.messageId,
            headers: m.headers,
            text: m.text,
          },
        },
        'mail (log: transport, not sent)',
      ),
  });
  const { runner } = services.writes;
  const notifications = new NotificationMails({
    store,
    mail: services.mail,
    config: deps.urls,
    logger,
    runner,
  });
  const digests = new MailDigests({
    store,
    mail: services.mail,
    config: deps.urls,
    logger,
    runner,
  });
  let digestsCheckedAt = 0;
  const dispatcher = new MailDispatcher({
    store,
    sender,
    from: config.from,
    logger,
    timeoutMs: config.timeoutMs,
    retryBaseMs: config.retryBaseMs,
    maxAttempts: config.maxAttempts,
    beforeClaim: async () => {
      await notifications.pass();
      if (Date.now() - digestsCheckedAt < DIGEST_CHECK_MS) return;
      digestsCheckedAt = Date.now();
      await digests.pass();
    },
  });
  dispatcher.start();
  services.mail.mailer.onQueued(() => dispatcher.wake());
  return dispatcher;
}
