// Notifications by e-mail. Each notification is written `pending` in the transaction of the write
// that caused it; a pass here looks at each once, by its recipient's e-mail frequency in that
// community: "immediately" queues one mail (the notification is settled `sent` in the mail's own
// transaction, so two instances never mail it twice), "never" settles it `skipped`, "daily" and
// "weekly" hand it to the digest (`digest`). Nobody is mailed about a community they can no longer
// read, nor without an address.
import type { Logger } from '../../log.ts';
import type { NotificationRecord } from '../../store/notifications.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { EmailFrequency } from '../notifications/vocabulary.ts';
import { communityOrigin, topicUrl, type UrlConfig } from '../urls.ts';
import { escapeHtml } from './message.ts';
import type { MailService } from './service.ts';

export type NotificationMailDeps = {
  store: Store;
  mail: MailService;
  config: UrlConfig;
  logger: Logger;
};

/** What the mail says happened, by kind ("Dana replied to “Why does sync stop?”"). */
export function notificationSubject(n: NotificationRecord): string {
  const who = n.actor.name;
  const what = `“${n.title}”`;
  switch (n.kind) {
    case 'replied':
      return `${who} replied to ${what}`;
    case 'quoted':
      return `${who} quoted your post in ${what}`;
    case 'mentioned':
      return `${who} mentioned you in ${what}`;
    case 'solution_accepted':
      return `Your answer in ${what} was accepted`;
    case 'topic_solved':
      return `${what} has an accepted answer`;
    case 'watched_topic':
      return `New topic: ${what}`;
    case 'watched_post':
      return `${who} posted in ${what}`;
    case 'approval_applied':
      return `Your post in ${what} was approved and published`;
    case 'approval_rejected':
      return `Your post ${what} was not approved`;
    case 'approval_failed':
      return `Your post ${what} was approved but could not be published`;
    case 'post_hidden':
      return `A moderator hid your post in ${what}`;
    case 'flag_upheld':
      return `The post you flagged in ${what} was hidden`;
    case 'flag_dismissed':
      return `Your flag in ${what} was reviewed`;
    default:
      return `${who}: ${what}`;
  }
}

export class NotificationMails {
  constructor(private readonly deps: NotificationMailDeps) {}

  /** Looks at up to `limit` pending notifications; returns how many it settled. */
  async pass(limit = 50): Promise<number> {
    const { store } = this.deps;
    let settled = 0;
    for (const n of await store.notificationMail.pending(limit)) {
      try {
        if (await this.settle(n)) settled++;
      } catch (err) {
        this.deps.logger.error({ err, notification: n.id }, 'a notification mail failed');
      }
    }
    return settled;
  }

  private async settle(n: NotificationRecord): Promise<boolean> {
    const { store } = this.deps;
    const now = new Date().toISOString();
    const scope = store.community(n.communityId);
    const frequency = ((await scope.notifications.emailPreference(n.recipientId)) ??
      'immediately') as EmailFrequency;
    if (frequency === 'daily' || frequency === 'weekly')
      return store.notificationMail.settle(n.id, 'digest', now);
    const community = await store.communities.getById(n.communityId);
    const person = await store.people.getById(n.recipientId);
    const mayRead =
      community &&
      (community.visibility === 'public' ||
        (await scope.notifications.members([n.recipientId])).has(n.recipientId));
    if (frequency === 'never' || !person?.email || !mayRead)
      return store.notificationMail.settle(n.id, 'skipped', now);
    const topic = n.topicId ? await scope.topics.getById(n.topicId) : undefined;
    const link = topic
      ? topicUrl(this.deps.config, community, topic.slug, n.postId ?? undefined)
      : undefined;
    return store.transaction(async (tx) => {
      if (!(await tx.notificationMail.settle(n.id, 'sent', now))) return false;
      await this.deps.mail.queue(tx, {
        to: { personId: person.id, email: person.email! },
        kind: `notification.${n.kind}`,
        communityId: n.communityId,
        thread: n.topicId ? `topic-${n.topicId}` : undefined,
        replyTopicId: n.topicId ?? undefined,
        ...this.words(n, community, link),
      });
      return true;
    });
  }

  private words(n: NotificationRecord, community: Community, link: string | undefined) {
    const subject = notificationSubject(n);
    const reason = n.reason ? `The moderator said: ${n.reason}` : undefined;
    const settings = `${communityOrigin(this.deps.config, community)}/account/notifications`;
    const footer = `You get this because of your notification settings in ${community.name}: ${settings}`;
    const reply = n.topicId
      ? 'Reply to this mail to post your answer in the topic (the quoted mail is left out).'
      : undefined;
    const lines = [subject, reason, link ? `Open it: ${link}` : undefined, reply, footer].filter(
      (l): l is string => Boolean(l),
    );
    const html = `<!doctype html><html><body><p>${escapeHtml(subject)}</p>${reason ? `<p>${escapeHtml(reason)}</p>` : ''}${link ? `<p><a href="${escapeHtml(link)}">Open it</a></p>` : ''}${reply ? `<p>${escapeHtml(reply)}</p>` : ''}<p><small>${escapeHtml(footer)}</small></p></body></html>`;
    return { subject: `[${community.name}] ${subject}`, text: `${lines.join('\n\n')}\n`, html };
  }
}
