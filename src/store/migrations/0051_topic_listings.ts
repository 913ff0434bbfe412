// Topic listings at any size. The home page's "unanswered" and "solved" lists: partial indexes hold
// only the topics each list shows, in its order, so the newest few are read directly instead of
// scanning every topic of the community for the rare unanswered one. The tags of a page of topics
// (or of one topic) are read by topic id: an index on (community, topic) spares a scan of all the
// community's tags.
import type { Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

const UNANSWERED = sql<boolean>`post_count <= 1 and solution_post_id is null`;
const SOLVED = sql<boolean>`solution_post_id is not null`;

export function topicListingsMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createIndex('topics_unanswered_by_created')
        .on('topics')
        .columns(['community_id', 'created_at', 'id'])
        .where(UNANSWERED)
        .execute();
      await db.schema
        .createIndex('topics_unanswered_by_latest')
        .on('topics')
        .columns(['community_id', 'last_posted_at', 'id'])
        .where(UNANSWERED)
        .execute();
      await db.schema
        .createIndex('topic_tags_by_topic')
        .on('topic_tags')
        .columns(['community_id', 'topic_id'])
        .execute();
      await db.schema
        .createIndex('topics_solved_by_latest')
        .on('topics')
        .columns(['community_id', 'last_posted_at', 'id'])
        .where(SOLVED)
        .execute();
    },
    async down(db: AnySchemaDb) {
      for (const name of [
        'topic_tags_by_topic',
        'topics_unanswered_by_created',
        'topics_unanswered_by_latest',
        'topics_solved_by_latest',
      ])
        await db.schema.dropIndex(name).execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'plain indexes on topics and topic_tags: writes to them wait for the build',
);
