// The versions of an edited post (articles keep theirs in article_revisions): from this migration
// on, the first edit of a post keeps the body it replaces as version 1 (with the question's title,
// its author and when it was written) and each edit adds the new body as the next version, with who
// made it. A post never edited has no rows; one edited before this migration keeps only the version
// it had then (its earlier bodies were not stored). Deleting the post deletes its versions.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function postRevisionsMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('post_revisions')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('post_id', id, (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('revision', 'integer', (c) => c.notNull())
        // The topic's title with this version of the question; null for a reply.
        .addColumn('title', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('author_kind', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text')
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('author_via', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addUniqueConstraint('post_revisions_number', ['post_id', 'revision'])
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('post_revisions').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
