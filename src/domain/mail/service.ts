// What faces ask of mail: whether it is on (and where it goes), a community's queue for its
// administrators (sent, pending, failed and why), sending a failed mail again, and one-click
// unsubscribing. Queuing a mail is Mailer.queue, called inside the causing write's transaction.
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { MailRecord, MailStatus } from '../../store/mail.ts';
import type { Actor } from '../actor.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../cursor.ts';
import { parse } from '../validate.ts';
import { bareRunner } from '../writes/bare-runner.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import { mailRetry } from './mail-retry.ts';
import { redact } from '../../outbound/mail-sender.ts';
import type { Mailer } from './mailer.ts';
import type { MailMessage } from './message.ts';

export type MailState = {
  enabled: boolean;
  /** Where mail goes (no password), or why it does not. */
  transport: string;
  from: string;
};

const listSchema = z.object({
  status: z.enum(['pending', 'sent', 'failed']).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(100).default(50),
});

export class MailService {
  /** Sending a mail again is a use case of it (./mail-retry.ts). */
  private readonly runner: WriteRunner;

  constructor(
    private readonly store: Store,
    readonly mailer: Mailer,
    /** The configured transport URL (its password is never shown). */
    private readonly transportUrl: string,
    /** The one write runner (absent: one over the bare store, ../writes/bare-runner.ts). */
    runner?: WriteRunner,
  ) {
    this.runner = runner ?? bareRunner(store);
  }

  /** Queues a mail through `tx`, the transaction of the write that causes it (see Mailer.queue). */
  async queue(tx: Store, message: MailMessage): Promise<string | null> {
    return this.mailer.queue(tx, message);
  }

  state(): MailState {
    return {
      enabled: this.mailer.enabled,
      transport: this.mailer.enabled
        ? redact(this.transportUrl)
        : 'HAMLET_SMTP_URL is not set, so no mail is sent (no verification, no password reset by e-mail)',
      from: this.mailer.settings.from,
    };
  }

  /** The community's mails, newest first, with counts by status. */
  async listQueue(
    actor: Actor,
    community: Community,
    input: z.input<typeof listSchema>,
  ): Promise<{
    state: MailState;
    counts: Record<MailStatus, number>;
    mails: MailRecord[];
    nextCursor: string | null;
  }> {
    await requireCommunityAdmin(this.store, actor, community, 'see the mail queue');
    const q = parse(listSchema, input);
    const after = decodeCursor('mail', q.cursor, CURSOR_SHAPES.byTime);
    const page = await this.store.mail.list({
      communityId: community.id,
      status: q.status,
      after,
      limit: q.limit,
    });
    return {
      state: this.state(),
      counts: await this.store.mail.counts(community.id),
      mails: page.items,
      nextCursor: page.next ? encodeCursor('mail', page.next) : null,
    };
  }

  /** Sends a failed or pending mail of the community again now, under the same Message-ID. */
  async retry(actor: Actor, community: Community, id: string, options?: RunOptions): Promise<void> {
    await this.runner.run(mailRetry, actor, community, { id }, options);
  }

  /** Every mail (the operator's CLI). */
  async listAll(input: { status?: MailStatus; limit?: number }): Promise<MailRecord[]> {
    return (await this.store.mail.list({ status: input.status, limit: input.limit ?? 50 })).items;
  }

  async unsubscribe(input: { p?: unknown; k?: unknown; s?: unknown }): Promise<boolean> {
    return this.mailer.unsubscribe(input);
  }
}
