// notification.mail: one notification by e-mail, by its recipient's e-mail frequency in its
// community: "immediately" queues one mail, the notification settled `sent` in the mail's own
// transaction (a conditional update: of two instances, one mails it); "never", no address, or a
// community they can no longer read settles it `skipped`; "daily" and "weekly" hand it to the digest
// (`digest`, ./digests.ts). A delivery the system makes on its own: no audit entry.
import { z } from 'zod';
import type { NotificationRecord } from '../../store/notifications.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community, Person } from '../../store/types.ts';
import type { EmailFrequency } from '../notifications/vocabulary.ts';
import { communityOrigin, topicUrl, type UrlConfig } from '../urls.ts';
import type { UseCase } from '../writes/use-case.ts';
import { escapeHtml } from './message.ts';
import { postInMail, type PostInMail } from './post-in-mail.ts';
import type { MailService } from './service.ts';

/** What the pass does with the notification, as its reads decided. */
type Plan =
  | { settle: 'digest' | 'skipped' }
  | {
      settle: 'sent';
      person: Person;
      community: Community;
      link: string | undefined;
      /** The post it is about, when its words belong in the mail (shown, not hidden or deleted). */
      post: PostInMail | undefined;
    };

/** The kinds whose mail carries the post's words: a reply by mail then answers what it read. */
const CARRIES_POST = new Set([
  'replied',
  'quoted',
  'mentioned',
  'watched_topic',
  'watched_post',
  'solution_accepted',
  'topic_solved',
  'approval_applied',
]);

const contract = z.custom<NotificationRecord>(
  (n) => typeof n === 'object' && n !== null && 'id' in n && 'recipientId' in n,
  'a notification record',
);

/** What the mail says happened, by kind ("Dana replied to “Why does sync stop?”"). */
export function notificationSubject(n: NotificationRecord): string {
  const who = n.actor.kind === 'agent' ? `${n.actor.name} (agent)` : n.actor.name;
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

export function notificationMail(
  mail: MailService,
  config: UrlConfig,
): UseCase<NotificationRecord, Plan, boolean, null> {
  return {
    name: 'notification.mail',
    contract,
    audited: false,
    load: async ({ store }, n) => {
      const scope = store.community(n.communityId);
      const frequency = ((await scope.notifications.emailPreference(n.recipientId)) ??
        'immediately') as EmailFrequency;
      if (frequency === 'daily' || frequency === 'weekly') return { settle: 'digest' };
      const community = await store.communities.getById(n.communityId);
      const person = await store.people.getById(n.recipientId);
      const mayRead =
        community &&
        (community.visibility === 'public' ||
          (await scope.notifications.members([n.recipientId])).has(n.recipientId));
      if (frequency === 'never' || !person?.email || !community || !mayRead)
        return { settle: 'skipped' };
      const topic = n.topicId ? await scope.topics.getById(n.topicId) : undefined;
      const link = topic
        ? topicUrl(config, community, topic.slug, n.postId ?? undefined)
        : undefined;
      return { settle: 'sent', person, community, link, post: await postOf(store, n, config) };
    },
    policy: async (_ctx, _n, plan) => ({ mode: 'apply', reason: plan.settle }),
    apply: async ({ tx }, n, plan) => {
      const now = new Date().toISOString();
      if (plan.settle !== 'sent') return tx.notificationMail.settle(n.id, plan.settle, now);
      if (!(await tx.notificationMail.settle(n.id, 'sent', now))) return false;
      const { person, community, link, post } = plan;
      await mail.queue(tx, {
        to: { personId: person.id, email: person.email! },
        kind: `notification.${n.kind}`,
        communityId: n.communityId,
        thread: n.topicId ? `topic-${n.topicId}` : undefined,
        replyTopicId: n.topicId ?? undefined,
        ...mailWords(config, n, community, link, post),
      });
      return true;
    },
    audit: () => ({ targets: {} }),
  };
}

/** The post's words, when the kind carries them and the post is still shown to everyone. */
async function postOf(
  store: Store,
  n: NotificationRecord,
  config: UrlConfig,
): Promise<PostInMail | undefined> {
  if (!n.postId || !n.topicId || !CARRIES_POST.has(n.kind)) return undefined;
  const scope = store.community(n.communityId);
  const post = await scope.posts.getById(n.postId);
  if (!post || post.deleted) return undefined;
  const hidden = await scope.moderation.hiddenInTopic(post.topicId);
  if (hidden.some((h) => h.postId === post.id)) return undefined;
  const community = await store.communities.getById(n.communityId);
  if (!community) return undefined;
  const who = post.author.kind === 'agent' ? `${post.author.name} (agent)` : post.author.name;
  return postInMail(post.body, who, communityOrigin(config, community));
}

/** The mail's subject, text and HTML: what happened, the post's words, the moderator's reason, the link. */
function mailWords(
  config: UrlConfig,
  n: NotificationRecord,
  community: Community,
  link: string | undefined,
  post: PostInMail | undefined,
) {
  const subject = notificationSubject(n);
  const reason = n.reason ? `The moderator said: ${n.reason}` : undefined;
  const settings = `${communityOrigin(config, community)}/account/notifications`;
  const footer = `You get this because of your notification settings in ${community.name}: ${settings}`;
  const reply = n.topicId
    ? 'Reply to this mail to post your answer in the topic (the quoted mail is left out).'
    : undefined;
  const open = link ? `${post?.cut ? 'Read it all' : 'Open it'}: ${link}` : undefined;
  const lines = [subject, post?.text, reason, open, reply, footer].filter((l): l is string =>
    Boolean(l),
  );
  const html = `<!doctype html><html><body><p>${escapeHtml(subject)}</p>${post ? `<p><strong>${escapeHtml(post.author)}</strong> wrote:</p><blockquote style="margin:0 0 1em;padding:0 0 0 1em;border-left:3px solid #ccc">${post.html}</blockquote>` : ''}${reason ? `<p>${escapeHtml(reason)}</p>` : ''}${link ? `<p><a href="${escapeHtml(link)}">${post?.cut ? 'Read it all' : 'Open it'}</a></p>` : ''}${reply ? `<p>${escapeHtml(reply)}</p>` : ''}<p><small>${escapeHtml(footer)}</small></p></body></html>`;
  return { subject: `[${community.name}] ${subject}`, text: `${lines.join('\n\n')}\n`, html };
}
