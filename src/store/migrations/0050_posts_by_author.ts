// Profile pages list a person's or an agent's posts in one community, newest first: an index on
// (community, author kind, author id, created_at) keeps that a range scan at any size.
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function postsByAuthorMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createIndex('posts_by_author')
        .on('posts')
        .columns(['community_id', 'author_kind', 'author_id', 'created_at'])
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropIndex('posts_by_author').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'a plain index on posts: writes to posts wait for the build',
);
