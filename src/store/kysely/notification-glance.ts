// What a person sees of their notifications at a glance, each in one statement: the bell's menu
// (the newest few, each with its topic's slug and the start of its post, and the unread count in
// the same statement), the same places for a page of the notifications list, and the notifications
// of one topic marked read when the person opens it. A post deleted or hidden gives no excerpt.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { NotificationDatabase, NotificationsTable } from '../notifications-schema.ts';
import type { NotificationPlace } from '../notifications.ts';
import { isUuid } from '../ids.ts';

/** The excerpt's length in characters of Markdown (the page shortens it further, on words). */
const EXCERPT_CHARS = 280;

type Db = Kysely<
  NotificationDatabase & {
    posts: { id: string; community_id: string; body: string; deleted_at: unknown };
    hidden_posts: { community_id: string; post_id: string };
  }
>;

function placesQuery(db: Db, communityId: string) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('topics as t', (j) =>
      j.onRef('t.id', '=', 'n.topic_id').on('t.community_id', '=', communityId),
    )
    .leftJoin('posts as p', (j) =>
      j
        .onRef('p.id', '=', 'n.post_id')
        .on('p.community_id', '=', communityId)
        .on('p.deleted_at', 'is', null)
        .on((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('hidden_posts as h')
                .select('h.post_id')
                .whereRef('h.post_id', '=', 'p.id')
                .where('h.community_id', '=', communityId),
            ),
          ),
        ),
    )
    .where('n.community_id', '=', communityId);
}

type PlaceRow = { id: string; slug: string | null; excerpt: string | null };

function placeOf(r: PlaceRow): NotificationPlace {
  return { topicSlug: r.slug ?? null, excerpt: r.excerpt ?? null };
}

/** The newest `limit` notifications with their places, and how many are unread (one statement). */
export async function glance(
  db: Db,
  communityId: string,
  recipientId: string,
  limit: number,
): Promise<{
  rows: (Selectable<NotificationsTable> & PlaceRow & { unread: number | string })[];
}> {
  if (!isUuid(recipientId)) return { rows: [] };
  const rows = await placesQuery(db, communityId)
    .selectAll('n')
    .select([
      't.slug',
      sql<string | null>`substr(p.body, 1, ${sql.lit(EXCERPT_CHARS)})`.as('excerpt'),
      (eb) =>
        eb
          .selectFrom('notifications as u')
          .select((u) => u.fn.countAll().as('n'))
          .where('u.community_id', '=', communityId)
          .where('u.recipient_id', '=', recipientId)
          .where('u.read_at', 'is', null)
          .as('unread'),
    ])
    .where('n.recipient_id', '=', recipientId)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(limit)
    .execute();
  return { rows: rows as never };
}

/** The places of these notifications of the recipient (one statement). */
export async function places(
  db: Db,
  communityId: string,
  recipientId: string,
  ids: string[],
): Promise<Map<string, NotificationPlace>> {
  const wanted = ids.filter(isUuid);
  if (!isUuid(recipientId) || wanted.length === 0) return new Map();
  const rows = await placesQuery(db, communityId)
    .select([
      'n.id',
      't.slug',
      sql<string | null>`substr(p.body, 1, ${sql.lit(EXCERPT_CHARS)})`.as('excerpt'),
    ])
    .where('n.recipient_id', '=', recipientId)
    .where('n.id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, placeOf(r)]));
}

/** The recipient's unread notifications about one topic, marked read (how many). */
export async function readOnTopic(
  db: Db,
  communityId: string,
  recipientId: string,
  topicId: string,
  at: string,
): Promise<number> {
  if (!isUuid(recipientId) || !isUuid(topicId)) return 0;
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('community_id', '=', communityId)
    .where('recipient_id', '=', recipientId)
    .where('topic_id', '=', topicId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export { placeOf };
