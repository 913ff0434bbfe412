// Profile pages list a person's or an agent's posts in one community, newest first: an index on
// (community, author kind, author id, created_at) keeps that a range scan at any size.
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';

export function postsByAuthorMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('posts_by_author')
        .on('posts')
        .columns(['community_id', 'author_kind', 'author_id', 'created_at'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('posts_by_author').execute();
    },
  };
}
