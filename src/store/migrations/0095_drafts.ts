// Drafts: what a person is writing, kept on the server per community, person and place (a reply
// to one topic, or a new topic), so a reply survives a closed tab, a sign-out or an expired form.
// One row per place: saving again replaces it; posting (or discarding) deletes it.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function draftsMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('drafts')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        // "topic:<topic id>" (a reply) or "new" (a new topic or article).
        .addColumn('place', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('drafts_pk', ['community_id', 'person_id', 'place'])
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('drafts').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
