// Daily and weekly digests. A notification of someone whose e-mail frequency is daily or weekly
// waits (`digest`, ./notification-mails.ts); once their period has begun (every day at 00:00 UTC,
// every week on Monday at 00:00 UTC) what waited from before it goes in one mail per person and
// community: the new topics and solved questions of what they watch, and the rest addressed to
// them. The mail is queued and the notifications settled `sent` in one transaction, so a digest is
// sent once even with several instances; notifications after the boundary wait for the next one.
// Nobody gets a digest of a community they can no longer read, nor without an address.
import type { Logger } from '../../log.ts';
import type { DigestItem } from '../../store/notifications.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import { communityOrigin, topicUrl, type UrlConfig } from '../urls.ts';
import { escapeHtml } from './message.ts';
import { notificationSubject } from './notification-mails.ts';
import type { MailService } from './service.ts';

export type DigestPeriod = 'daily' | 'weekly';

/** The mail kind of digests (turned off in one click like any notification kind). */
export const DIGEST_KIND = 'notification.digest';
/** A digest lists this many entries per section; the rest are counted and linked. */
export const DIGEST_SECTION_ENTRIES = 50;
/** Notifications one digest mail takes at most (more wait for the next pass, same period). */
const DIGEST_MAX_ITEMS = 5_000;

const DAY = 86_400_000;

/** Where the period containing `now` began: 00:00 UTC today, or Monday 00:00 UTC this week. */
export function periodStart(period: DigestPeriod, now: number): number {
  const day = Math.floor(now / DAY) * DAY;
  if (period === 'daily') return day;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return day - weekday * DAY;
}

export type DigestDeps = {
  store: Store;
  mail: MailService;
  config: UrlConfig;
  logger: Logger;
  /** The clock (tests move it past a boundary). */
  now?: () => number;
};

type Section = { title: string; items: DigestItem[] };

export class MailDigests {
  constructor(private readonly deps: DigestDeps) {}

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
    const { store } = this.deps;
    const scope = store.community(communityId);
    const frequency = await scope.notifications.emailPreference(personId);
    const period: DigestPeriod = frequency === 'weekly' ? 'weekly' : 'daily';
    const before = new Date(periodStart(period, now)).toISOString();
    const items = await scope.notifications.waitingForDigest(personId, before, DIGEST_MAX_ITEMS);
    if (!items.length) return false;
    const community = await store.communities.getById(communityId);
    const person = await store.people.getById(personId);
    const mayRead =
      community &&
      (community.visibility === 'public' || (await scope.notifications.members([personId])).size);
    const at = new Date(now).toISOString();
    const ids = items.map((i) => i.id);
    return store
      .transaction(async (tx) => {
        const settle = async (state: 'sent' | 'skipped') => {
          if ((await tx.notificationMail.settleDigest(ids, at, state)) !== ids.length)
            throw new DigestTaken(); // another instance sent it meanwhile: nothing of ours stays
        };
        if (!community || !mayRead || !person?.email || frequency === 'never') {
          await settle('skipped');
          return false;
        }
        const unsubscribe = await this.deps.mail.mailer.unsubscribeUrl(person.id, DIGEST_KIND, tx);
        const queued = await this.deps.mail.queue(tx, {
          to: { personId: person.id, email: person.email },
          kind: DIGEST_KIND,
          communityId,
          ...this.words(community, period, items, unsubscribe),
        });
        await settle(queued === null ? 'skipped' : 'sent');
        return queued !== null;
      })
      .catch((err: unknown) => {
        if (err instanceof DigestTaken) return false;
        throw err;
      });
  }

  private words(community: Community, period: DigestPeriod, items: DigestItem[], unsub: string) {
    const origin = communityOrigin(this.deps.config, community);
    const sections: Section[] = [
      { title: 'New topics', items: items.filter((i) => i.kind === 'watched_topic') },
      { title: 'Solved', items: items.filter((i) => i.kind === 'topic_solved') },
      {
        title: 'For you',
        items: items.filter((i) => i.kind !== 'watched_topic' && i.kind !== 'topic_solved'),
      },
    ].filter((s) => s.items.length);
    const counts = [
      [sections.find((s) => s.title === 'New topics')?.items.length, 'new topic', 'new topics'],
      [sections.find((s) => s.title === 'Solved')?.items.length, 'solved', 'solved'],
      [sections.find((s) => s.title === 'For you')?.items.length, 'for you', 'for you'],
    ]
      .filter(([n]) => n)
      .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
    const label = period === 'daily' ? 'daily' : 'weekly';
    const subject = `[${community.name}] Your ${label} digest: ${counts.join(', ')}`;
    const link = (i: DigestItem) =>
      i.topicSlug
        ? topicUrl(this.deps.config, community, i.topicSlug, i.postId ?? undefined)
        : `${origin}/notifications`;
    const line = (i: DigestItem) =>
      i.kind === 'watched_topic' || i.kind === 'topic_solved'
        ? `“${i.title}”`
        : notificationSubject(i);
    const more = (s: Section) => s.items.length - DIGEST_SECTION_ENTRIES;
    const settings = `${origin}/account/notifications`;
    const footer = `You get this ${label} digest because of your notification settings in ${community.name}: ${settings}`;
    const text = [
      `Your ${label} digest of ${community.name}.`,
      ...sections.map((s) =>
        [
          `${s.title} (${s.items.length})`,
          ...s.items.slice(0, DIGEST_SECTION_ENTRIES).map((i) => `- ${line(i)}\n  ${link(i)}`),
          ...(more(s) > 0 ? [`… and ${more(s)} more: ${origin}/notifications`] : []),
        ].join('\n'),
      ),
      footer,
      `No more digests: ${unsub}`,
    ].join('\n\n');
    const html = `<!doctype html><html><body><p>${escapeHtml(`Your ${label} digest of ${community.name}.`)}</p>${sections
      .map(
        (s) =>
          `<h2>${escapeHtml(`${s.title} (${s.items.length})`)}</h2><ul>${s.items
            .slice(0, DIGEST_SECTION_ENTRIES)
            .map((i) => `<li><a href="${escapeHtml(link(i))}">${escapeHtml(line(i))}</a></li>`)
            .join(
              '',
            )}</ul>${more(s) > 0 ? `<p><a href="${escapeHtml(`${origin}/notifications`)}">… and ${more(s)} more</a></p>` : ''}`,
      )
      .join(
        '',
      )}<p><small>${escapeHtml(footer)}</small></p><p><small><a href="${escapeHtml(unsub)}">No more digests</a></small></p></body></html>`;
    return { subject, text: `${text}\n`, html };
  }
}

class DigestTaken extends Error {}
