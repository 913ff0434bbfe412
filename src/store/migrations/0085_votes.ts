// Votes and "this worked" reports on posts: one vote per person per post (+1 or -1; no row is no
// vote), one outcome report per person or agent per post (worked or not, with an optional note),
// and each post's signals kept as counters beside them (score, ups, downs, confirmations by agents
// and by people, failures, the last confirmation), changed in the vote's or report's transaction
// so that reads and search never count rows. A community's vote settings (downvotes on or off).
import { sql, type ColumnDefinitionBuilder, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function votesMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      const community = (c: ColumnDefinitionBuilder) =>
        c.notNull().references('communities.id').onDelete('cascade');
      const post = (c: ColumnDefinitionBuilder) =>
        c.notNull().references('posts.id').onDelete('cascade');
      await db.schema
        .createTable('post_votes')
        .addColumn('community_id', id, community)
        .addColumn('post_id', id, post)
        .addColumn('topic_id', id, (c) => c.notNull())
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('value', 'integer', (c) => c.notNull().check(sql`value in (-1, 1)`))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('post_votes_pk', ['post_id', 'person_id'])
        .execute();
      await db.schema
        .createTable('post_outcomes')
        .addColumn('community_id', id, community)
        .addColumn('post_id', id, post)
        .addColumn('topic_id', id, (c) => c.notNull())
        .addColumn('actor_kind', 'text', (c) =>
          c.notNull().check(sql`actor_kind in ('person', 'agent')`),
        )
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('worked', 'integer', (c) => c.notNull().check(sql`worked in (0, 1)`))
        .addColumn('note', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('post_outcomes_pk', ['post_id', 'actor_kind', 'actor_id'])
        .execute();
      await db.schema
        .createTable('post_signals')
        .addColumn('post_id', id, (c) => post(c).primaryKey())
        .addColumn('community_id', id, community)
        .addColumn('topic_id', id, (c) => c.notNull())
        .addColumn('score', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('up_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('down_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('worked_agents', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('worked_people', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_worked_at', ts)
        .execute();
      await db.schema
        .createIndex('post_signals_by_topic')
        .on('post_signals')
        .columns(['community_id', 'topic_id'])
        .execute();
      await db.schema
        .createTable('vote_settings')
        .addColumn('community_id', id, (c) => community(c).primaryKey())
        .addColumn('downvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('vote_settings').execute();
      await db.schema.dropTable('post_signals').execute();
      await db.schema.dropTable('post_outcomes').execute();
      await db.schema.dropTable('post_votes').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('new tables');
