// notification.digest: one person's daily or weekly digest of one community. What waited for it from
// before their period began (every day at 00:00 UTC, every week on Monday at 00:00 UTC) goes in one
// mail: the new topics and solved questions of what they watch, and the rest addressed to them. The
// mail is queued and the notifications settled `sent` in one transaction (a conditional update of
// them all: of two instances, one sends it, the other's is rolled back); someone who can no longer
// read the community, has no address or wants no mail has them settled `skipped`. A delivery the
// system makes on its own: no audit entry.
import { z } from 'zod';
import type { DigestItem } from '../../store/notifications.ts';
import type { Community, Person } from '../../store/types.ts';
import { communityOrigin, topicUrl, type UrlConfig } from '../urls.ts';
import type { UseCase } from '../writes/use-case.ts';
import { escapeHtml } from './message.ts';
import { notificationSubject } from './notification-mail.ts';
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

/** Another instance sent (or skipped) the digest meanwhile: nothing of this one stays. */
export class DigestTaken extends Error {}

type Section = { title: string; items: DigestItem[] };

const contract = z.object({ communityId: z.string(), personId: z.string(), now: z.number() });

type Loaded = {
  items: DigestItem[];
  period: DigestPeriod;
  /** Who gets it, where; absent: the notifications are settled `skipped`. */
  to?: { community: Community; person: Person & { email: string } };
};

export function digestMail(
  mail: MailService,
  config: UrlConfig,
): UseCase<z.output<typeof contract>, Loaded, boolean, null> {
  return {
    name: 'notification.digest',
    contract,
    audited: false,
    load: async ({ store }, { communityId, personId, now }) => {
      const scope = store.community(communityId);
      const frequency = await scope.notifications.emailPreference(personId);
      const period: DigestPeriod = frequency === 'weekly' ? 'weekly' : 'daily';
      const before = new Date(periodStart(period, now)).toISOString();
      const items = await scope.notifications.waitingForDigest(personId, before, DIGEST_MAX_ITEMS);
      if (!items.length) return { items, period };
      const community = await store.communities.getById(communityId);
      const person = await store.people.getById(personId);
      const mayRead =
        community &&
        (community.visibility === 'public' || (await scope.notifications.members([personId])).size);
      if (!community || !mayRead || !person?.email || frequency === 'never')
        return { items, period };
      return { items, period, to: { community, person: { ...person, email: person.email } } };
    },
    policy: async (_ctx, _input, { to }) => ({ mode: 'apply', reason: to ? 'due' : 'skipped' }),
    apply: async ({ tx }, { now }, { items, period, to }) => {
      if (!items.length) return false;
      const at = new Date(now).toISOString();
      const ids = items.map((i) => i.id);
      const settle = async (state: 'sent' | 'skipped') => {
        if ((await tx.notificationMail.settleDigest(ids, at, state)) !== ids.length)
          throw new DigestTaken();
      };
      if (!to) {
        await settle('skipped');
        return false;
      }
      const { community, person } = to;
      const unsubscribe = await mail.mailer.unsubscribeUrl(person.id, DIGEST_KIND, tx);
      const queued = await mail.queue(tx, {
        to: { personId: person.id, email: person.email },
        kind: DIGEST_KIND,
        communityId: community.id,
        ...digestWords(config, community, period, items, unsubscribe),
      });
      await settle(queued === null ? 'skipped' : 'sent');
      return queued !== null;
    },
    audit: () => ({ targets: {} }),
  };
}

/** The digest's subject, text and HTML: its sections, each with at most DIGEST_SECTION_ENTRIES. */
function digestWords(
  config: UrlConfig,
  community: Community,
  period: DigestPeriod,
  items: DigestItem[],
  unsub: string,
) {
  const origin = communityOrigin(config, community);
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
      ? topicUrl(config, community, i.topicSlug, i.postId ?? undefined)
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
