// What a mail is to the domain, before it is queued: a typed message to one recipient, of one kind.
// Account kinds (`account.*`) are the mails a person asked for or must get (verification, reset,
// e-mail change) and carry no unsubscribe; notification kinds (`notification.*`) may be turned off
// by their recipient in one click (List-Unsubscribe, RFC 8058) and are then no longer queued.
export type AccountMailKind =
  | 'account.verify'
  | 'account.signup_exists'
  | 'account.password_reset'
  | 'account.email_change'
  | 'account.email_changed';

export type MailKind = AccountMailKind | `notification.${string}`;

export type MailMessage = {
  /** A person (their id makes unsubscribing possible), or a bare address (an e-mail change's new one). */
  to: { personId: string; email: string } | { personId?: undefined; email: string };
  kind: MailKind;
  subject: string;
  text: string;
  html?: string;
  /** The community the mail is about (its admins see it in their queue); none for account mails. */
  communityId?: string;
  /**
   * Mails about one thing thread together in a mail client: a stable key such as `topic-<id>`
   * becomes the root Message-ID every such mail references.
   */
  thread?: string;
  /**
   * The topic a reply to this mail is posted to: the mailer gives it a Reply-To signed for the
   * recipient and the topic (./reply-address.ts). Only with a person as recipient.
   */
  replyTopicId?: string;
  /** More header lines; the thread, unsubscribe and Auto-Submitted headers are set by the mailer. */
  headers?: Record<string, string>;
};

export const isNotificationKind = (kind: string): boolean => kind.startsWith('notification.');

/** The domain of an address or of `Name <address>`. */
export function domainOf(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@').pop()!.trim().toLowerCase();
}

/** Text escaped for an HTML part (element content and double-quoted attributes). */
export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
