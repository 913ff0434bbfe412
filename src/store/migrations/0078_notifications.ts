// Notifications for people: one row per (recipient, community, cause) written in the transaction
// of the write that caused it, read and marked read in the app, and handed to the mail side through
// `email_state` (pending → sent | skipped | digest). Watch levels per topic and per category, each person's
// e-mail preference per community, and people's unique @handles (backfilled from display names).
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import { freeHandle, handleBase } from '../handles.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function notificationsMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('notifications')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('recipient_id', id, (c) =>
          c.notNull().references('people.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        // What caused it, once per recipient ("post:<id>", "approval:<id>", "solution:<post id>"):
        // a second write of the same cause (a retry, a replay) adds nothing.
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('topic_id', id)
        .addColumn('post_id', id)
        .addColumn('approval_id', id)
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
        // The moderator's reason of a rejected (or failed) queued write.
        .addColumn('reason', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('read_at', ts)
        // For the mail side: pending until it mails it (or decides not to: skipped).
        .addColumn('email_state', 'text', (c) =>
          c
            .notNull()
            .defaultTo('pending')
            .check(sql`email_state in ('pending', 'sent', 'skipped', 'digest')`),
        )
        .addColumn('emailed_at', ts)
        .addUniqueConstraint('notifications_once', ['community_id', 'recipient_id', 'source_key'])
        .execute();
      await db.schema
        .createIndex('notifications_by_recipient')
        .on('notifications')
        .columns(['community_id', 'recipient_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('notifications_to_mail')
        .on('notifications')
        .columns(['email_state', 'created_at'])
        .execute();

      await db.schema
        .createTable('notification_levels')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('target_kind', 'text', (c) =>
          c.notNull().check(sql`target_kind in ('topic', 'category')`),
        )
        .addColumn('target_id', id, (c) => c.notNull())
        .addColumn('level', 'text', (c) =>
          c.notNull().check(sql`level in ('watch', 'track', 'normal', 'mute')`),
        )
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_levels_pk', [
          'community_id',
          'person_id',
          'target_kind',
          'target_id',
        ])
        .execute();
      await db.schema
        .createIndex('notification_levels_by_target')
        .on('notification_levels')
        .columns(['community_id', 'target_kind', 'target_id', 'level'])
        .execute();

      await db.schema
        .createTable('notification_preferences')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) =>
          c
            .notNull()
            .defaultTo('immediately')
            .check(sql`email in ('immediately', 'daily', 'weekly', 'never')`),
        )
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_preferences_pk', ['community_id', 'person_id'])
        .execute();

      await db.schema.alterTable('people').addColumn('handle', 'text').execute();
      const taken = new Set<string>();
      const people = await db
        .selectFrom('people')
        .select(['id', 'display_name'])
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      for (const p of people) {
        const handle = await freeHandle(handleBase(String(p.display_name)), async (h) =>
          taken.has(h),
        );
        taken.add(handle);
        await db.updateTable('people').set({ handle }).where('id', '=', p.id).execute();
      }
      await db.schema.createIndex('people_handle').on('people').column('handle').unique().execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropIndex('people_handle').execute();
      await db.schema.alterTable('people').dropColumn('handle').execute();
      await db.schema.dropTable('notification_preferences').execute();
      await db.schema.dropTable('notification_levels').execute();
      await db.schema.dropTable('notifications').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'gives every person a handle, one update each, and a unique index on people',
);
