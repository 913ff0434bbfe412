// Moderator actions (issue 24): a topic's moderation state beside its open/closed status, a post's
// soft delete, and the moderation log.
//
//   topics.locked_at       set: no replies and no edits (closed only refuses replies)
//   topics.pinned_at       set: listed first, most recently pinned first
//   topics.deleted_*       a soft delete: when, by whom (the moderator's display name), why
//   topics.duplicate_of    closed as a duplicate of this topic (same community)
//   topics.merged_into     its posts were merged into this topic; the topic is left as a pointer
//   posts.deleted_*        a post's soft delete, as for topics
//   moderation_log         one row per moderator action: who, what, which topic or post, why, when
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function moderatorActionsMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      for (const column of ['locked_at', 'pinned_at', 'deleted_at'])
        await db.schema.alterTable('topics').addColumn(column, ts).execute();
      for (const column of ['deleted_by', 'delete_reason'])
        await db.schema.alterTable('topics').addColumn(column, 'text').execute();
      for (const column of ['duplicate_of', 'merged_into'])
        await db.schema.alterTable('topics').addColumn(column, id).execute();
      await db.schema.alterTable('posts').addColumn('deleted_at', ts).execute();
      for (const column of ['deleted_by', 'delete_reason'])
        await db.schema.alterTable('posts').addColumn(column, 'text').execute();
      await db.schema
        .createTable('moderation_log')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('topic_id', id)
        .addColumn('post_id', id)
        .addColumn('target_title', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      // The log page: a community's actions newest first (keyset on created_at, id).
      await db.schema
        .createIndex('moderation_log_community')
        .on('moderation_log')
        .columns(['community_id', 'created_at', 'id'])
        .execute();
      // The "asked as" lookup: the duplicates of a topic.
      await db.schema
        .createIndex('topics_duplicate_of')
        .on('topics')
        .column('duplicate_of')
        .where(sql.ref('duplicate_of'), 'is not', null)
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropIndex('topics_duplicate_of').ifExists().execute();
      await db.schema.dropTable('moderation_log').ifExists().execute();
      for (const column of ['deleted_at', 'deleted_by', 'delete_reason'])
        await db.schema.alterTable('posts').dropColumn(column).execute();
      for (const column of [
        'locked_at',
        'pinned_at',
        'deleted_at',
        'deleted_by',
        'delete_reason',
        'duplicate_of',
        'merged_into',
      ])
        await db.schema.alterTable('topics').dropColumn(column).execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'nullable columns and a new table, but a plain index on topics',
);
