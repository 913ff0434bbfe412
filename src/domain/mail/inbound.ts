// Mail that comes back: a reply to a notification mail is posted to its topic as the person its
// reply address was signed for, through the one write pipeline (the community's approval policy
// applies; a message delivered twice posts once: its Message-ID is the idempotency key); a
// delivery status notification counts hard bounces (./bounces.ts). Refused and logged: an address
// that is not one of ours, forged or altered, expired, naming a person or topic that is gone, a
// sender that is not the person, and mail a machine wrote (auto-replies are dropped, not posted).
import { createHash } from 'node:crypto';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { PersonActor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import type { WriteService } from '../writes/write-service.ts';
import { recordHardBounce } from './bounces.ts';
import type { Mailer } from './mailer.ts';

export type DeliveryReport = {
  recipients: { address: string; action: string; status: string; diagnostic: string | null }[];
  /** The Message-ID of the mail it returns, when the report carries its headers. */
  originalMessageId: string | null;
};

/** An incoming message as the mail side reads it (src/import/mail/inbound.ts parses RFC 822). */
export type InboundMail = {
  messageId: string | null;
  from: string | null;
  /** The envelope recipient first (when the MTA gives it), then Delivered-To, To and Cc. */
  recipients: string[];
  subject: string;
  /** The text with quotes and signature removed. */
  body: string;
  automatic: boolean;
  report?: DeliveryReport;
};

export type RefusalReason =
  | 'not_a_reply_address'
  | 'forged'
  | 'expired'
  | 'unknown'
  | 'wrong_sender'
  | 'not_allowed'
  | 'empty';

export type InboundResult =
  | {
      outcome: 'posted';
      status: 'applied' | 'pending_approval';
      topicId: string;
      postId?: string;
      approvalId?: string;
    }
  | { outcome: 'bounce'; counted: number; disabled: number }
  | { outcome: 'ignored'; reason: string }
  | { outcome: 'refused'; reason: RefusalReason; message: string };

export type InboundDeps = {
  store: Store;
  mailer: Mailer;
  writes: WriteService;
  rolesOf: (personId: string) => Promise<PersonActor['roles']>;
  logger: Logger;
  now?: () => number;
};

export class MailInbound {
  constructor(private readonly deps: InboundDeps) {}

  async receive(mail: InboundMail): Promise<InboundResult> {
    const result = mail.report ? await this.bounce(mail.report) : await this.reply(mail);
    const level = result.outcome === 'refused' ? 'warn' : 'info';
    this.deps.logger[level](
      {
        event: `mail.inbound.${result.outcome}`,
        messageId: mail.messageId,
        ...(result.outcome === 'refused' || result.outcome === 'ignored'
          ? { reason: result.reason }
          : {}),
      },
      result.outcome === 'refused' ? `incoming mail refused: ${result.message}` : 'incoming mail',
    );
    return result;
  }

  private async bounce(report: DeliveryReport): Promise<InboundResult> {
    const { store, logger } = this.deps;
    const original = report.originalMessageId
      ? await store.mail.getByMessageId(report.originalMessageId)
      : undefined;
    if (!original) return { outcome: 'ignored', reason: 'a report about no mail of ours' };
    let counted = 0;
    let disabled = 0;
    for (const r of report.recipients) {
      const hard = r.action === 'failed' && r.status.startsWith('5');
      if (!hard || r.address.toLowerCase() !== original.to.toLowerCase()) continue;
      const state = await recordHardBounce(
        store,
        logger,
        original.to,
        `${r.status} ${r.diagnostic ?? ''}`.trim(),
      );
      counted++;
      if (state.disabledAt) disabled++;
    }
    if (!counted) return { outcome: 'ignored', reason: 'no hard bounce in the report' };
    return { outcome: 'bounce', counted, disabled };
  }

  private async reply(mail: InboundMail): Promise<InboundResult> {
    const { store, mailer } = this.deps;
    const refuse = (reason: RefusalReason, message: string): InboundResult => ({
      outcome: 'refused',
      reason,
      message,
    });
    if (mail.automatic) return { outcome: 'ignored', reason: 'written by a machine (auto-reply)' };
    const address = mailer.replies.pick(mail.recipients);
    if (!address)
      return refuse('not_a_reply_address', 'it was not sent to a reply address of this Hamlet');
    const check = await mailer.replies.check(store, address, (this.deps.now ?? Date.now)());
    if (!check.ok)
      return check.reason === 'expired'
        ? refuse('expired', 'the reply address has expired: reply on the web instead')
        : refuse(check.reason, 'the reply address is not one Hamlet signed (forged or altered)');
    const person = await store.people.getById(check.personId);
    const communityId = await store.mail.topicCommunity(check.topicId);
    const community = communityId && (await store.communities.getById(communityId));
    if (!person || !community)
      return refuse('unknown', 'the person or the topic of the reply address no longer exists');
    if (!person.email || mail.from?.toLowerCase() !== person.email.toLowerCase())
      return refuse(
        'wrong_sender',
        'it was not sent from the address of the person it answers for',
      );
    if (mail.body.trim().length < 2) return refuse('empty', 'the reply has no text of its own');
    const actor: PersonActor = {
      kind: 'person',
      personId: person.id,
      displayName: person.displayName,
      via: 'mail', // a reply received by mail (hamlet mail receive)
      roles: await this.deps.rolesOf(person.id),
    };
    const key = `mail:${createHash('sha256')
      .update(mail.messageId ?? mail.body)
      .digest('hex')}`;
    try {
      const written = await this.deps.writes.execute(
        actor,
        community,
        'post.create',
        { topic: check.topicId, body: mail.body },
        { idempotencyKey: key },
      );
      if (written.status === 'pending_approval')
        return {
          outcome: 'posted',
          status: 'pending_approval',
          topicId: check.topicId,
          approvalId: written.approval_id,
        };
      const post = (written.result as { post?: { id: string } }).post;
      return { outcome: 'posted', status: 'applied', topicId: check.topicId, postId: post?.id };
    } catch (err) {
      if (
        err instanceof DomainError &&
        !['internal', 'unavailable', 'rate_limited'].includes(err.code)
      )
        return refuse('not_allowed', err.message);
      throw err;
    }
  }
}
