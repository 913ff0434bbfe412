// Bookmarks: what a person keeps to come back to, a topic or one post, per community. One row per
// person and thing (bookmarking again keeps the first row); deleting the topic or post deletes the
// bookmark with it. Listed newest first by (created_at, id).
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function bookmarksMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('bookmarks')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        // Exactly one of the two: a bookmark of a whole topic, or of one post.
        .addColumn('topic_id', id, (c) => c.references('topics.id').onDelete('cascade'))
        .addColumn('post_id', id, (c) => c.references('posts.id').onDelete('cascade'))
        // The topic's or the post's id: what a person bookmarks at most once.
        .addColumn('target_id', id, (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addCheckConstraint(
          'bookmarks_one_target',
          sql`(topic_id is null and post_id is not null) or (topic_id is not null and post_id is null)`,
        )
        .execute();
      await db.schema
        .createIndex('bookmarks_once')
        .on('bookmarks')
        .columns(['community_id', 'person_id', 'target_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('bookmarks_newest_first')
        .on('bookmarks')
        .columns(['community_id', 'person_id', 'created_at', 'id'])
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('bookmarks').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
