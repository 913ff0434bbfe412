// Listings read in files of a fixed size by ordinal (migration 0112): the public communities, and a
// community's listed topics. A file is one range of an index, (after, through], and only the
// columns a listing shows are read, so a file of 50,000 costs 50,000 small rows whatever else the
// database holds; how many files there are comes from one row (the last ordinal given).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { toIso } from '../time.ts';
import type { ListedCommunity, ListedEntry } from '../types.ts';

/** The last ordinal given to a community (0 when there is none). */
export async function lastCommunityOrdinal(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('communities')
    .select(sql<number | string | null>`max(ordinal)`.as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/** The public communities whose ordinal is in (after, through], in ordinal order. */
export async function publicCommunitiesByOrdinal(
  db: Kysely<Database>,
  after: number,
  through: number,
): Promise<ListedCommunity[]> {
  const rows = await db
    .selectFrom('communities')
    .select(['slug', 'custom_domain', 'updated_at'])
    .where('ordinal', '>', after)
    .where('ordinal', '<=', through)
    .where('visibility', '=', 'public')
    .orderBy('ordinal')
    .execute();
  return rows.map((r) => ({
    slug: r.slug,
    customDomain: r.custom_domain,
    updatedAt: toIso(r.updated_at),
  }));
}

/** The last ordinal given to one of the community's topics (0 when there is none). */
export async function lastTopicOrdinal(db: Kysely<Database>, communityId: string): Promise<number> {
  const row = await db
    .selectFrom('communities')
    .select('topic_ordinals')
    .where('id', '=', communityId)
    .executeTakeFirst();
  return Number(row?.topic_ordinals ?? 0);
}

/**
 * The community's listed topics (neither deleted nor merged away) whose ordinal is in
 * (after, through], in ordinal order; updatedAt is the later of its last post and its last change.
 */
export async function listedTopicsByOrdinal(
  db: Kysely<Database>,
  communityId: string,
  after: number,
  through: number,
): Promise<Array<ListedEntry & { id: string }>> {
  const rows = await db
    .selectFrom('topics')
    .select(['id', 'slug', 'updated_at', 'last_posted_at'])
    .where('community_id', '=', communityId)
    .where('ordinal', '>', after)
    .where('ordinal', '<=', through)
    .where('deleted_at', 'is', null)
    .where('merged_into', 'is', null)
    .orderBy('ordinal')
    .execute();
  return rows.map((r) => {
    const [posted, changed] = [toIso(r.last_posted_at), toIso(r.updated_at)];
    return { id: r.id, slug: r.slug, updatedAt: posted > changed ? posted : changed };
  });
}
