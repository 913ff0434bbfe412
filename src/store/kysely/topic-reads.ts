// A community's reading records (migration 0116_topic_reads): one row per person and topic they
// opened (an upsert whose position never moves back), one per person and community for visits,
// and the batched view counts of every community. Every query carries the community's id; a
// malformed id matches nothing.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  TopicActivity,
  TopicRead,
  TopicReadDatabase,
  TopicReadRepository,
  TopicViewCounts,
} from '../topic-reads.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { authorRef } from './rows.ts';

type Db = Kysely<TopicReadDatabase>;
export const topicReadDb = (db: Kysely<Database>): Db => db as unknown as Db;

export class KyselyTopicReads implements TopicReadRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async opened(personId: string, topicId: string, position: number, at = nowIso()): Promise<void> {
    if (!isUuid(personId) || !isUuid(topicId)) return;
    await this.db
      .insertInto('topic_reads')
      .values({
        community_id: this.communityId,
        person_id: personId,
        topic_id: topicId,
        last_position: position,
        read_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['community_id', 'person_id', 'topic_id']).doUpdateSet({
          last_position: sql`case when topic_reads.last_position > excluded.last_position then topic_reads.last_position else excluded.last_position end`,
          read_at: (eb) => eb.ref('excluded.read_at'),
        }),
      )
      .execute();
  }

  async among(personId: string, topicIds: string[]): Promise<Map<string, TopicRead>> {
    const ids = topicIds.filter(isUuid);
    const out = new Map<string, TopicRead>();
    if (!isUuid(personId) || ids.length === 0) return out;
    const rows = await this.db
      .selectFrom('topic_reads')
      .select(['topic_id', 'last_position', 'read_at'])
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('topic_id', 'in', ids)
      .execute();
    for (const r of rows)
      out.set(r.topic_id, { lastPosition: Number(r.last_position), readAt: toIso(r.read_at) });
    return out;
  }

  async activity(topicIds: string[]): Promise<Map<string, TopicActivity>> {
    const ids = [...new Set(topicIds.filter(isUuid))];
    const out = new Map<string, TopicActivity>();
    if (ids.length === 0) return out;
    // Each topic's last post that is not deleted, by the (topic_id, position) index, with its views.
    const rows = await this.db
      .selectFrom('posts as p')
      .leftJoin('topic_views as v', 'v.topic_id', 'p.topic_id')
      .select([
        'p.topic_id',
        'p.position',
        'p.author_kind',
        'p.author_id',
        'p.author_name',
        'p.author_via',
        'p.created_at',
        'v.views',
      ])
      .where('p.community_id', '=', this.communityId)
      .where('p.topic_id', 'in', ids)
      .where('p.position', '=', (eb) =>
        eb
          .selectFrom('posts as q')
          .select((q) => q.fn.max('q.position').as('last'))
          .whereRef('q.topic_id', '=', 'p.topic_id')
          .where('q.deleted_at', 'is', null),
      )
      .execute();
    for (const r of rows)
      out.set(r.topic_id, {
        lastPosition: Number(r.position),
        lastAuthor: authorRef(r.author_kind, r.author_id, r.author_name, r.author_via),
        lastPostedAt: toIso(r.created_at),
        views: Number(r.views ?? 0),
      });
    return out;
  }

  async visit(
    personId: string,
    at: string,
    gapMs: number,
  ): Promise<{ previousSeenAt: string | null }> {
    if (!isUuid(personId)) return { previousSeenAt: null };
    const row = await this.db
      .selectFrom('community_visits')
      .select(['last_seen_at', 'previous_seen_at'])
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .executeTakeFirst();
    if (!row) {
      await this.db
        .insertInto('community_visits')
        .values({
          community_id: this.communityId,
          person_id: personId,
          last_seen_at: at,
          previous_seen_at: null,
        })
        .onConflict((oc) => oc.columns(['community_id', 'person_id']).doNothing())
        .execute();
      return { previousSeenAt: null };
    }
    const last = toIso(row.last_seen_at);
    if (Date.parse(at) - Date.parse(last) <= gapMs)
      return { previousSeenAt: row.previous_seen_at ? toIso(row.previous_seen_at) : null };
    // A new visit: the one that began at `last` becomes the previous one (once, of two instances).
    await this.db
      .updateTable('community_visits')
      .set({ previous_seen_at: row.last_seen_at, last_seen_at: at })
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('last_seen_at', '=', row.last_seen_at)
      .execute();
    return { previousSeenAt: last };
  }
}

/** The batched view counts: one statement adds a whole batch, over any number of communities. */
export class KyselyTopicViews implements TopicViewCounts {
  constructor(private readonly db: Db) {}

  async add(counts: { communityId: string; topicId: string; views: number }[]): Promise<void> {
    const rows = counts.filter((c) => isUuid(c.communityId) && isUuid(c.topicId) && c.views > 0);
    if (rows.length === 0) return;
    // Only topics that still exist (one deleted since its views were counted is left out): two
    // statements a batch, whatever its size.
    const existing = await this.db
      .selectFrom('topics')
      .select(['id', 'community_id'])
      .where('id', 'in', [...new Set(rows.map((r) => r.topicId))])
      .execute();
    const communityOf = new Map(existing.map((t) => [t.id, t.community_id]));
    const views = new Map<string, number>();
    for (const r of rows)
      if (communityOf.get(r.topicId) === r.communityId)
        views.set(r.topicId, (views.get(r.topicId) ?? 0) + r.views);
    if (views.size === 0) return;
    await this.db
      .insertInto('topic_views')
      .values(
        [...views].map(([topicId, n]) => ({
          community_id: communityOf.get(topicId)!,
          topic_id: topicId,
          views: n,
        })),
      )
      .onConflict((oc) =>
        oc.column('topic_id').doUpdateSet({ views: sql`topic_views.views + excluded.views` }),
      )
      .execute();
  }
}
