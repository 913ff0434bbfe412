// Reading a person's notifications in one community (newest first, with links and a sentence
// each), the unread count of the bell, and the levels and e-mail preference they set. Only people
// have notifications; a private community's are read by its members only (a removed member reads
// none, even those written before).
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { NotificationPlace, NotificationRecord } from '../../store/notifications.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { requirePersonHere } from './person.ts';
import { requireRead } from '../authorization.ts';
import { suggestHandles } from './mentions.ts';
import { CURSOR_SHAPES, decodeCursor, encodeCursor } from '../cursor.ts';
import { cursor, pageLimit, topicRef } from '../fields.ts';
import { findTopic } from '../content-lookup.ts';
import { topicUrl } from '../urls.ts';
import { parse } from '../validate.ts';
import type { EmailFrequency, NotificationKind, WatchLevel } from './vocabulary.ts';
import { isWatchLevel } from './vocabulary.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import type { UseCase } from '../writes/use-case.ts';

export type NotificationView = {
  id: string;
  kind: NotificationKind;
  /** One sentence: "Ada replied to “How do I …”". */
  text: string;
  title: string;
  url: string | null;
  topicId: string | null;
  postId: string | null;
  approvalId: string | null;
  actor: { kind: string; id: string | null; name: string };
  /** The moderator's reason, on a rejected (or failed) queued write. */
  reason: string | null;
  /** The start of the post it is about, as plain text (null: none, or no longer shown). */
  excerpt: string | null;
  createdAt: string;
  readAt: string | null;
};

/** How many notifications the bell's menu shows. */
export const BELL_ITEMS = 6;

/** The excerpt a list shows: the post's first words as plain text, cut on a word. */
export function excerptOf(markdown: string | null, max = 140): string | null {
  if (!markdown) return null;
  const text = markdown
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/^\s*>.*$/gm, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_`~|>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

const listSchema = z.object({
  unread_only: z.boolean().optional(),
  cursor: cursor.nullish(),
  limit: pageLimit(50, 20),
});

/** Who acted, an agent marked as one ("helper-bot (agent)"). */
function actorName(n: Pick<NotificationRecord, 'actor'>): string {
  return n.actor.kind === 'agent' ? `${n.actor.name} (agent)` : n.actor.name;
}

function sentence(n: NotificationRecord): string {
  const who = actorName(n);
  const t = `“${n.title}”`;
  switch (n.kind as NotificationKind) {
    case 'replied':
      return `${who} replied to ${t}`;
    case 'quoted':
      return `${who} quoted your post in ${t}`;
    case 'mentioned':
      return `${who} mentioned you in ${t}`;
    case 'solution_accepted':
      return `${who} accepted your answer in ${t}`;
    case 'topic_solved':
      return `${t} has an accepted answer`;
    case 'watched_topic':
      return `${who} started ${t}`;
    case 'watched_post':
      return `${who} posted in ${t}`;
    case 'approval_applied':
      return `${who} approved ${t}: it is published`;
    case 'approval_rejected':
      // A reply names its topic (topicId set); a new topic its own title.
      return `${who} did not publish ${n.topicId ? `your reply to ${t}` : t}${n.reason ? `: ${n.reason}` : ''}`;
    case 'approval_failed':
      return `${t} was approved but could not be published${n.reason ? `: ${n.reason}` : ''}`;
    case 'answer_failed':
      return `${who} says an answer in ${t} did not work for them${n.reason ? `: “${n.reason}”` : ''}`;
    case 'post_hidden':
      return `${who} hid your post in ${t}${n.reason ? `: ${n.reason}` : ''}`;
    case 'flag_upheld':
      return `${who} hid the post you flagged in ${t}`;
    case 'flag_dismissed':
      return `${who} kept the post you flagged in ${t}${n.reason ? `: ${n.reason}` : ''}`;
    default:
      return `${who}: ${t}`;
  }
}

export class NotificationService {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly runner: WriteRunner,
  ) {}

  /** Whom an "@" and these letters may mention here (readers of the community only). */
  async suggestHandles(actor: Actor, community: Community, prefix: string) {
    requireRead(actor, community);
    return suggestHandles(this.store, community, prefix);
  }

  async list(
    actor: Actor,
    community: Community,
    input: z.input<typeof listSchema> = {},
  ): Promise<{
    notifications: NotificationView[];
    unreadCount: number;
    nextCursor: string | null;
  }> {
    const person = requirePersonHere(actor, community);
    const data = parse(listSchema, input);
    const scope = this.store.community(community.id);
    const listing = `notifications:${data.unread_only ? 'unread' : 'all'}`;
    const page = await scope.notifications.list(person.personId, {
      after: decodeCursor(listing, data.cursor, CURSOR_SHAPES.byTime),
      limit: data.limit,
      unreadOnly: data.unread_only,
    });
    const places = await scope.notifications.places(
      person.personId,
      page.items.map((n) => n.id),
    );
    const views = page.items.map((n) =>
      this.view(community, n, places.get(n.id) ?? { topicSlug: null, excerpt: null }),
    );
    return {
      notifications: views,
      unreadCount: await scope.notifications.unreadCount(person.personId),
      nextCursor: page.next ? encodeCursor(listing, page.next) : null,
    };
  }

  /** One notification as callers see it: its sentence, its link, the start of its post. */
  private view(
    community: Community,
    n: NotificationRecord,
    place: NotificationPlace,
  ): NotificationView {
    return {
      id: n.id,
      kind: n.kind as NotificationKind,
      text: sentence(n),
      title: n.title,
      url: place.topicSlug
        ? topicUrl(this.config, community.slug, place.topicSlug, n.postId ?? undefined)
        : null,
      topicId: n.topicId,
      postId: n.postId,
      approvalId: n.approvalId,
      actor: n.actor,
      reason: n.reason,
      excerpt: excerptOf(place.excerpt),
      createdAt: n.createdAt,
      readAt: n.readAt,
    };
  }

  /**
   * The bell: the unread count and the newest few notifications, in one statement (nothing for
   * anyone who has no notifications here: visitors, agents).
   */
  async glance(
    actor: Actor,
    community: Community,
  ): Promise<{ unread: number; recent: NotificationView[] }> {
    if (actor.kind !== 'person') return { unread: 0, recent: [] };
    try {
      requirePersonHere(actor, community);
    } catch {
      return { unread: 0, recent: [] };
    }
    const got = await this.store
      .community(community.id)
      .notifications.glance(actor.personId, BELL_ITEMS);
    return { unread: got.unread, recent: got.items.map((n) => this.view(community, n, n)) };
  }

  /** Runs one of the person's own writes (../writes/personal-write.ts) through the runner. */
  async write<I, L, R>(
    actor: Actor,
    community: Community,
    use: UseCase<I, L, R>,
    input: unknown,
    options: RunOptions = {},
  ): Promise<R> {
    return this.runner.run(use, actor, community, input, options);
  }

  /** The bell's number: 0 for anyone who has no notifications here (visitors, agents). */
  async unreadCount(actor: Actor, community: Community): Promise<number> {
    if (actor.kind !== 'person') return 0;
    try {
      requirePersonHere(actor, community);
    } catch {
      return 0;
    }
    return this.store.community(community.id).notifications.unreadCount(actor.personId);
  }

  /** The person's level on one topic: what they set, else what its category gives, else normal. */
  async topicLevel(
    actor: Actor,
    community: Community,
    reference: string,
  ): Promise<{ level: WatchLevel; set: boolean }> {
    const person = requirePersonHere(actor, community);
    const scope = this.store.community(community.id);
    const topic = await findTopic(scope, parse(z.object({ t: topicRef }), { t: reference }).t);
    const notes = scope.notifications;
    const own = await notes.level(person.personId, 'topic', topic.id);
    if (isWatchLevel(own)) return { level: own, set: true };
    const inherited = await notes.level(person.personId, 'category', topic.categoryId);
    return { level: isWatchLevel(inherited) ? inherited : 'normal', set: false };
  }

  /** The e-mail frequency and the level on each category the person set one on. */
  async preferences(
    actor: Actor,
    community: Community,
  ): Promise<{
    email: EmailFrequency;
    handle: string | null;
    categories: { categoryId: string; level: WatchLevel }[];
  }> {
    const person = requirePersonHere(actor, community);
    const notes = this.store.community(community.id).notifications;
    const email = ((await notes.emailPreference(person.personId)) ??
      'immediately') as EmailFrequency;
    const levels = await notes.levelsOf(person.personId, 'category');
    return {
      email,
      handle: (await this.store.people.getById(person.personId))?.handle ?? null,
      categories: levels.flatMap((l) =>
        isWatchLevel(l.level) ? [{ categoryId: l.targetId, level: l.level }] : [],
      ),
    };
  }
}
