// The one call that queues a mail: `mailer.queue(tx, message)` writes it to the outbox through the
// caller's transaction, so the mail exists exactly when the change that caused it commits. The
// mailer gives it its Message-ID (`<outbox id@from-domain>`, the delivery id: a resend after a crash
// keeps it), `Auto-Submitted: auto-generated`, thread headers from the message's thread key, and
// for notification kinds a signed one-click unsubscribe link (RFC 8058) and, for a mail about a
// topic, a Reply-To signed for the recipient and the topic (./reply-address.ts). With mail off (no
// HAMLET_SMTP_URL) nothing is queued; a kind the recipient turned off is not queued either, nor a
// notification to an address disabled after hard bounces (./bounces.ts).
import { createHmac } from 'node:crypto';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import { newId } from '../../store/ids.ts';
import { safeEqual } from '../identity/secrets.ts';
import { domainOf, isNotificationKind, type MailMessage } from './message.ts';
import { ReplyAddresses } from './reply-address.ts';

export type MailerSettings = {
  /** Whether mail is on (a transport is configured). */
  enabled: boolean;
  from: string;
  /** The apex's public origin: links in mails (unsubscribe, account pages) start with it. */
  origin: string;
};

export const UNSUBSCRIBE_PATH = '/mail/unsubscribe';

export class Mailer {
  readonly domain: string;
  private key?: string;
  private readonly listeners: (() => void)[] = [];
  /** The signed reply addresses of notification mails. */
  readonly replies: ReplyAddresses;

  constructor(
    private readonly store: Store,
    readonly settings: MailerSettings,
    private readonly logger?: Logger,
  ) {
    this.domain = domainOf(settings.from);
    this.replies = new ReplyAddresses(settings.from, (via) =>
      via.webhookQueue.keyringKey(
        'mail-reply',
        newId().replace(/-/g, '') + newId().replace(/-/g, ''),
      ),
    );
  }

  /**
   * Called shortly after a mail is queued here (the local dispatcher wakes); a mail whose
   * transaction has not committed by then is found by the next poll.
   */
  onQueued(listener: () => void): void {
    this.listeners.push(listener);
  }

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /** An absolute link on the apex: `origin + path`. */
  link(path: string): string {
    return `${this.settings.origin}${path}`;
  }

  /**
   * Queues `message` through `tx` (pass the transaction of the write that causes it); returns the
   * outbox id, or null when nothing was queued (mail off, or the recipient turned this kind off).
   */
  async queue(tx: Store, message: MailMessage): Promise<string | null> {
    if (!this.settings.enabled) return null;
    const personId = message.to.personId ?? null;
    const notification = isNotificationKind(message.kind);
    if (notification && personId && (await tx.mail.isUnsubscribed(personId, message.kind))) {
      this.logger?.debug({ kind: message.kind, personId }, 'mail not queued: unsubscribed');
      return null;
    }
    if (notification && (await tx.mail.bounceState(message.to.email))?.disabledAt) {
      this.logger?.debug({ kind: message.kind, personId }, 'mail not queued: address bounces');
      return null;
    }
    const id = newId();
    const headers: Record<string, string> = {
      ...message.headers,
      'Auto-Submitted': 'auto-generated',
    };
    if (message.thread) {
      const root = `<${message.thread}@${this.domain}>`;
      headers['References'] = root;
      headers['In-Reply-To'] = root;
    }
    if (notification && personId) {
      const url = await this.unsubscribeUrl(personId, message.kind, tx);
      headers['List-Unsubscribe'] = `<${url}>`;
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    }
    if (message.replyTopicId && personId)
      headers['Reply-To'] = await this.replies.address(tx, personId, message.replyTopicId);
    await tx.mail.enqueue({
      id,
      messageId: `<${id}@${this.domain}>`,
      communityId: message.communityId ?? null,
      personId,
      to: message.to.email,
      kind: message.kind,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      headers,
    });
    if (this.listeners.length) setTimeout(() => this.listeners.forEach((l) => l()), 25).unref();
    return id;
  }

  /** The signed one-click link that turns `kind` off for the person. */
  async unsubscribeUrl(personId: string, kind: string, tx: Store = this.store): Promise<string> {
    const q = new URLSearchParams({ p: personId, k: kind, s: await this.sign(personId, kind, tx) });
    return this.link(`${UNSUBSCRIBE_PATH}?${q.toString()}`);
  }

  /** Turns the kind off when the signature is ours; false for a forged or altered link. */
  async unsubscribe(input: { p?: unknown; k?: unknown; s?: unknown }): Promise<boolean> {
    const { p, k, s } = input;
    if (typeof p !== 'string' || typeof k !== 'string' || typeof s !== 'string') return false;
    if (!isNotificationKind(k) || k.length > 100) return false;
    if (!safeEqual(await this.sign(p, k, this.store), s)) return false;
    await this.store.mail.unsubscribe(p, k);
    this.logger?.info({ event: 'mail.unsubscribed', personId: p, kind: k }, 'mail kind turned off');
    return true;
  }

  /** Signs with the installation's key, read through `via` (inside a transaction: through it). */
  private async sign(personId: string, kind: string, via: Store): Promise<string> {
    const key = (this.key ??= await via.webhookQueue.keyringKey(
      'mail-unsubscribe',
      newId().replace(/-/g, '') + newId().replace(/-/g, ''),
    ));
    return createHmac('sha256', key).update(`${personId}\n${kind}`).digest('base64url');
  }
}
