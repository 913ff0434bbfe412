// What each signed-in person read, per topic (topic_reads: the last post position they were shown,
// when), when they last came to a community and the visit before (community_visits: "new since
// your last visit"), and each topic's view count (topic_views: added in batches an instance counts
// in memory, so a view costs no write of its own). A topic's rows go with it.
import { sql, type Migration } from 'kysely';
import type { AnySchemaDb } from '../any-schema.ts';
import type { Dialect } from '../repositories.ts';
import { safeUnderTraffic } from './traffic.ts';

export function topicReadsMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const big = dialect === 'postgres' ? sql`bigint` : sql`integer`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('topic_reads')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('topic_id', id, (c) => c.notNull().references('topics.id').onDelete('cascade'))
        // The highest post position the person was shown: posts after it are unread.
        .addColumn('last_position', 'integer', (c) => c.notNull())
        .addColumn('read_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('topic_reads_pk', ['community_id', 'person_id', 'topic_id'])
        .execute();
      await db.schema
        .createIndex('topic_reads_by_topic')
        .on('topic_reads')
        .columns(['topic_id'])
        .execute();
      await db.schema
        .createTable('community_visits')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('last_seen_at', ts, (c) => c.notNull())
        // The start of the visit before this one: what "new since your last visit" counts from.
        .addColumn('previous_seen_at', ts)
        .addPrimaryKeyConstraint('community_visits_pk', ['community_id', 'person_id'])
        .execute();
      await db.schema
        .createTable('topic_views')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('topic_id', id, (c) =>
          c.primaryKey().references('topics.id').onDelete('cascade'),
        )
        .addColumn('views', big, (c) => c.notNull())
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('topic_views').execute();
      await db.schema.dropTable('community_visits').execute();
      await db.schema.dropTable('topic_reads').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('new tables');
