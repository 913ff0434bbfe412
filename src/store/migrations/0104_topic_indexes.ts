// Indexes for two lookups that read every topic of a community at 100k posts: a topic's
// duplicates ("asked as", oldest first) and the pinned topics (newest pin first, on the community's
// home page and lists). 0088's duplicate index held duplicate_of alone, and SQLite, without
// statistics, took the community's topics by date instead (32 ms a topic page); pins had none
// (14 ms a home page). Both are partial: only the few topics that are duplicates or pinned.
import { sql, type Migration } from 'kysely';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export const topicIndexesMigration: Migration = {
  async up(db: AnySchemaDb) {
    await db.schema.dropIndex('topics_duplicate_of').ifExists().execute();
    await db.schema
      .createIndex('topics_duplicates')
      .on('topics')
      .columns(['community_id', 'duplicate_of', 'created_at'])
      .where(sql.ref('duplicate_of'), 'is not', null)
      .execute();
    await db.schema
      .createIndex('topics_pinned')
      .on('topics')
      .columns(['community_id', 'pinned_at'])
      .where(sql.ref('pinned_at'), 'is not', null)
      .execute();
  },
  async down(db: AnySchemaDb) {
    await db.schema.dropIndex('topics_pinned').ifExists().execute();
    await db.schema.dropIndex('topics_duplicates').ifExists().execute();
    await db.schema
      .createIndex('topics_duplicate_of')
      .on('topics')
      .column('duplicate_of')
      .where(sql.ref('duplicate_of'), 'is not', null)
      .execute();
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'plain indexes on topics: writes to topics wait for the build',
);
