// Member profiles: a person's bio and picture in one community (its own, as each community is its
// own site), one row per person written on their first change; deleting the community or the
// person deletes it with them. The picture is an upload of the same community (uploads are keyed
// by community and id; the use case that sets it checks that it is one, an image, and theirs).
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function memberProfilesMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('member_profiles')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('avatar_upload_id', id)
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('member_profiles_pk', ['community_id', 'person_id'])
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('member_profiles').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
