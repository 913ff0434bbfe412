// A community's moderation records (../moderator-actions.ts): topic state and post soft deletes, merges,
// pinned topics, duplicates and the moderation log. Every query carries the community's id.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type { Dialect } from '../repositories.ts';
import type { ModerationLogTable, ModerationDatabase } from '../moderator-actions-schema.ts';
import type {
  ModerationEntry,
  ModeratorActionsRepository,
  NewModerationEntry,
  TopicModerationPatch,
} from '../moderator-actions.ts';
import type { AuthorKind, Deletion, Keyset, Page, Topic } from '../types.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { timeOrderedId } from './identity-rows.ts';
import { newestFirst } from './newest-first.ts';
import { topicFromRow } from './rows.ts';
import { KyselyTopics } from './topics.ts';

const deletionColumns = (d: Deletion | null) => ({
  deleted_at: d ? toIso(d.at) : null,
  deleted_by: d ? d.by : null,
  delete_reason: d ? d.reason : null,
});

function entryFromRow(r: Selectable<ModerationLogTable>): ModerationEntry {
  return {
    id: r.id,
    communityId: r.community_id,
    action: r.action,
    actor: { kind: r.actor_kind as AuthorKind, id: r.actor_id, name: r.actor_name },
    topicId: r.topic_id,
    postId: r.post_id,
    targetTitle: r.target_title,
    detail: r.detail,
    reason: r.reason,
    createdAt: toIso(r.created_at),
  };
}

export class KyselyModeratorActions implements ModeratorActionsRepository {
  private readonly topics: KyselyTopics;
  private readonly logDb: Kysely<ModerationDatabase>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly communityId: string,
    dialect: Dialect,
  ) {
    this.topics = new KyselyTopics(db, communityId, dialect);
    this.logDb = db as unknown as Kysely<ModerationDatabase>;
  }

  async setTopic(topicId: string, patch: TopicModerationPatch): Promise<Topic | undefined> {
    if (!isUuid(topicId)) return undefined;
    const set: Record<string, unknown> = { updated_at: nowIso() };
    if (patch.lockedAt !== undefined) set.locked_at = patch.lockedAt && toIso(patch.lockedAt);
    if (patch.pinnedAt !== undefined) set.pinned_at = patch.pinnedAt && toIso(patch.pinnedAt);
    if (patch.deleted !== undefined) Object.assign(set, deletionColumns(patch.deleted));
    if (patch.duplicateOf !== undefined) set.duplicate_of = patch.duplicateOf;
    if (patch.mergedInto !== undefined) set.merged_into = patch.mergedInto;
    const result = await this.db
      .updateTable('topics')
      .set(set)
      .where('community_id', '=', this.communityId)
      .where('id', '=', topicId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.topics.getById(topicId);
  }

  async setPostDeleted(postId: string, deleted: Deletion | null): Promise<boolean> {
    if (!isUuid(postId)) return false;
    const result = await this.db
      .updateTable('posts')
      .set(deletionColumns(deleted))
      .where('community_id', '=', this.communityId)
      .where('id', '=', postId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async mergePosts(sourceId: string, targetId: string): Promise<number> {
    if (!isUuid(sourceId) || !isUuid(targetId)) return 0;
    const count = async (id: string) =>
      Number(
        (
          await this.db
            .selectFrom('topics')
            .select('post_count')
            .where('community_id', '=', this.communityId)
            .where('id', '=', id)
            .executeTakeFirst()
        )?.post_count ?? 0,
      );
    const start = await count(targetId);
    const moving = await this.db
      .selectFrom('posts')
      .select(['id', 'created_at', 'deleted_at', 'deleted_by', 'delete_reason'])
      .where('community_id', '=', this.communityId)
      .where('topic_id', '=', sourceId)
      .orderBy('position')
      .execute();
    const deleted = moving.filter((p) => p.deleted_at !== null);
    for (const p of deleted) await this.setPostDeleted(p.id, null);
    // One post at a time, each to a free position after the target's last: (topic, position) stays unique.
    for (const [i, p] of moving.entries())
      await this.db
        .updateTable('posts')
        .set({ topic_id: targetId, position: start + i + 1 })
        .where('community_id', '=', this.communityId)
        .where('id', '=', p.id)
        .execute();
    // The index follows a move (0009's move trigger) only for a live post: a soft-deleted one is
    // restored before its move and deleted again after it, so it leaves the index again (0089).
    for (const p of deleted)
      await this.setPostDeleted(p.id, {
        at: toIso(p.deleted_at!),
        by: p.deleted_by ?? '',
        reason: p.delete_reason ?? '',
      });
    const at = nowIso();
    await this.db
      .updateTable('topics')
      .set({ post_count: 0, solution_post_id: null, updated_at: at })
      .where('community_id', '=', this.communityId)
      .where('id', '=', sourceId)
      .execute();
    const latest = moving
      .map((p) => toIso(p.created_at))
      .sort()
      .at(-1);
    await this.db
      .updateTable('topics')
      .set({
        post_count: start + moving.length,
        updated_at: at,
        ...(latest
          ? {
              last_posted_at: sql`case when last_posted_at < ${latest} then ${latest} else last_posted_at end`,
            }
          : {}),
      })
      .where('community_id', '=', this.communityId)
      .where('id', '=', targetId)
      .execute();
    return moving.length;
  }

  async pinned(categoryId: string | undefined, limit: number): Promise<Topic[]> {
    let q = this.db
      .selectFrom('topics')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('pinned_at', 'is not', null)
      .where('deleted_at', 'is', null)
      .where('merged_into', 'is', null);
    if (categoryId) q = q.where('category_id', '=', categoryId);
    const rows = await q.orderBy('pinned_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    const out: Topic[] = [];
    for (const r of rows) out.push((await this.topics.getById(r.id)) ?? topicFromRow(r, []));
    return out;
  }

  async duplicatesOf(topicId: string): Promise<{ id: string; slug: string; title: string }[]> {
    if (!isUuid(topicId)) return [];
    return this.db
      .selectFrom('topics')
      .select(['id', 'slug', 'title'])
      .where('community_id', '=', this.communityId)
      .where('duplicate_of', '=', topicId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .execute();
  }

  async log(entry: NewModerationEntry): Promise<ModerationEntry> {
    const at = entry.createdAt ? toIso(entry.createdAt) : nowIso();
    const row = {
      id: timeOrderedId(Date.parse(at)),
      community_id: this.communityId,
      action: entry.action,
      actor_kind: entry.actor.kind,
      actor_id: entry.actor.id,
      actor_name: entry.actor.name,
      topic_id: entry.topicId ?? null,
      post_id: entry.postId ?? null,
      target_title: entry.targetTitle ?? '',
      detail: entry.detail ?? '',
      reason: entry.reason ?? '',
      created_at: at,
    };
    await this.logDb.insertInto('moderation_log').values(row).execute();
    return entryFromRow(row);
  }

  async listLog(page: { after?: Keyset; limit: number }): Promise<Page<ModerationEntry, Keyset>> {
    const q = this.logDb
      .selectFrom('moderation_log')
      .selectAll()
      .where('community_id', '=', this.communityId);
    return newestFirst(q, page, entryFromRow);
  }
}
