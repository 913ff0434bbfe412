// Self-moderation of a community: flags on posts (one per flagger per post), posts hidden until a
// moderator decides (by enough trusted flags, or by a moderator), sanctions (a person or an agent
// suspended or silenced until a time, with the reason they are shown), and the community's
// moderation settings (flag threshold, trust thresholds, sandbox limits) as one JSON document.
import { sql, type ColumnDefinitionBuilder, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function moderationMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const community = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('communities.id').onDelete('cascade');
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('post_flags')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, community)
        .addColumn('post_id', id, (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('topic_id', id, (c) => c.notNull())
        .addColumn('flagger_kind', 'text', (c) =>
          c.notNull().check(sql`flagger_kind in ('person', 'agent')`),
        )
        .addColumn('flagger_id', 'text', (c) => c.notNull())
        .addColumn('flagger_name', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        // Whether the flagger was trusted when flagging: only trusted flags count toward hiding.
        .addColumn('trusted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) =>
          c
            .notNull()
            .defaultTo('open')
            .check(sql`status in ('open', 'dismissed', 'upheld')`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('decided_at', ts)
        .addColumn('decided_by_name', 'text')
        .addUniqueConstraint('post_flags_once', [
          'community_id',
          'post_id',
          'flagger_kind',
          'flagger_id',
        ])
        .execute();
      await db.schema
        .createIndex('post_flags_by_status')
        .on('post_flags')
        .columns(['community_id', 'status', 'created_at'])
        .execute();

      await db.schema
        .createTable('hidden_posts')
        .addColumn('community_id', id, community)
        .addColumn('post_id', id, (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('topic_id', id, (c) => c.notNull())
        // The post's position in its topic: 1, the question, hides the topic with it.
        .addColumn('position', 'integer', (c) => c.notNull())
        // 'flags': enough trusted flags; 'moderator': a moderator hid it.
        .addColumn('cause', 'text', (c) => c.notNull().check(sql`cause in ('flags', 'moderator')`))
        .addColumn('note', 'text')
        .addColumn('by_name', 'text', (c) => c.notNull())
        .addColumn('hidden_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('hidden_posts_pk', ['community_id', 'post_id'])
        .execute();
      await db.schema
        .createIndex('hidden_posts_by_topic')
        .on('hidden_posts')
        .columns(['community_id', 'topic_id'])
        .execute();

      await db.schema
        .createTable('sanctions')
        .addColumn('community_id', id, community)
        .addColumn('subject_kind', 'text', (c) =>
          c.notNull().check(sql`subject_kind in ('person', 'agent')`),
        )
        .addColumn('subject_id', id, (c) => c.notNull())
        .addColumn('subject_name', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('suspended', 'silenced')`))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('ends_at', ts, (c) => c.notNull())
        .addColumn('by_name', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('sanctions_pk', ['community_id', 'subject_kind', 'subject_id'])
        .execute();

      // Why a write waits in the approval queue (the policy's named reason), for the review queue.
      await db.schema
        .createTable('queued_reasons')
        .addColumn('community_id', id, community)
        .addColumn('approval_id', id, (c) =>
          c.notNull().references('approvals.id').onDelete('cascade'),
        )
        .addColumn('reason', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('queued_reasons_pk', ['community_id', 'approval_id'])
        .execute();

      await db.schema
        .createTable('moderation_settings')
        .addColumn('community_id', id, (c) => community(c).primaryKey())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: AnySchemaDb) {
      for (const t of [
        'moderation_settings',
        'queued_reasons',
        'sanctions',
        'hidden_posts',
        'post_flags',
      ])
        await db.schema.dropTable(t).execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('new tables');
