// What each person read, and what topic lists show of a topic's life: a signed-in person opening a
// topic page records how far they read it (one upsert; a visitor's read writes nothing) and reads
// their notifications about it; every opening is counted as a view in memory (./view-counter.ts);
// lists ask once per page for each topic's last poster, views and, for a signed-in reader, how
// many posts came since they read it; the home page asks when their previous visit began.
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor, PersonActor } from '../actor.ts';
import { canRead } from '../authorization.ts';
import { authorView, type AuthorView } from '../views.ts';
import { ViewCounter } from './view-counter.ts';

/** A visit ends when the person has not come for this long: "new since your last visit" starts there. */
export const VISIT_GAP_MS = 60 * 60 * 1000;

/** A topic's life as a list shows it to one reader. */
export type TopicLife = {
  lastPoster: AuthorView;
  lastPostedAt: string;
  views: number;
  /** Posts after the last one the reader was shown (null: a visitor, or never opened). */
  unread: number | null;
  /** The signed-in reader never opened it. */
  unopened: boolean;
};

/** The signed-in person who may read here, if the actor is one. */
function readerOf(actor: Actor, community: Community): PersonActor | undefined {
  return actor.kind === 'person' && canRead(actor, community) ? actor : undefined;
}

export class ReadingService {
  readonly views: ViewCounter;

  constructor(
    private readonly store: Store,
    onViewsError?: (err: unknown) => void,
  ) {
    this.views = new ViewCounter(store.topicViews, { onError: onViewsError });
  }

  /**
   * The actor was shown the topic up to the post at `shownUpTo`: one view; for a signed-in person,
   * their read position (one upsert) and, when they have unread notifications (`unreadHint`, the
   * bell's count: none, no statement), those about this topic marked read.
   */
  async opened(
    actor: Actor,
    community: Community,
    topicId: string,
    shownUpTo: number,
    unreadHint: number,
  ): Promise<{ notificationsRead: number }> {
    this.views.count(community.id, topicId);
    const person = readerOf(actor, community);
    if (!person) return { notificationsRead: 0 };
    const scope = this.store.community(community.id);
    const at = new Date().toISOString();
    const [, notificationsRead] = await Promise.all([
      scope.topicReads.opened(person.personId, topicId, shownUpTo, at),
      unreadHint > 0
        ? scope.notifications.readOnTopic(person.personId, topicId, at)
        : Promise.resolve(0),
    ]);
    return { notificationsRead };
  }

  /** The life of these topics (the ones a list shows), for this reader: two statements at most. */
  async lives(
    actor: Actor,
    community: Community,
    topicIds: string[],
  ): Promise<Map<string, TopicLife>> {
    const out = new Map<string, TopicLife>();
    if (!canRead(actor, community) || topicIds.length === 0) return out;
    const scope = this.store.community(community.id);
    const person = readerOf(actor, community);
    const [activity, reads] = await Promise.all([
      scope.topicReads.activity(topicIds),
      person ? scope.topicReads.among(person.personId, topicIds) : Promise.resolve(undefined),
    ]);
    for (const [id, a] of activity) {
      const read = reads?.get(id);
      out.set(id, {
        lastPoster: authorView(a.lastAuthor, community),
        lastPostedAt: a.lastPostedAt,
        views: a.views,
        unread: read ? Math.max(0, a.lastPosition - read.lastPosition) : null,
        unopened: Boolean(reads && !read),
      });
    }
    return out;
  }

  /** When the signed-in person's previous visit here began (null: a visitor, or their first visit). */
  async previousVisit(actor: Actor, community: Community): Promise<string | null> {
    const person = readerOf(actor, community);
    if (!person) return null;
    const { previousSeenAt } = await this.store
      .community(community.id)
      .topicReads.visit(person.personId, new Date().toISOString(), VISIT_GAP_MS);
    return previousSeenAt;
  }
}
