// Communities, people, agents and content. Dialect differences live here only: PostgreSQL gets
// uuid and timestamptz columns, SQLite TEXT for both (ISO strings sort correctly as text).
// Child tables reference their parent by (community_id, id), so the database itself refuses a post
// whose topic belongs to another community.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function contentMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('communities')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('guidelines', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('visibility', 'text', (c) =>
          c.notNull().check(sql`visibility in ('public', 'private')`),
        )
        .addColumn('custom_domain', 'text', (c) => c.unique())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();

      // Community-independent; a later migration adds password/credential columns.
      await db.schema
        .createTable('people')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();

      // A later migration adds scopes, trust, keys.
      await db.schema
        .createTable('agents')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addUniqueConstraint('agents_community_name', ['community_id', 'name'])
        .addUniqueConstraint('agents_community_id', ['community_id', 'id'])
        .execute();

      await db.schema
        .createTable('categories')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('kind', 'text', (c) =>
          c.notNull().check(sql`kind in ('discussion', 'knowledge_base')`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .addUniqueConstraint('categories_community_slug', ['community_id', 'slug'])
        .addUniqueConstraint('categories_community_id', ['community_id', 'id'])
        .execute();

      await db.schema
        .createTable('topics')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('category_id', id, (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('author_kind', 'text', (c) =>
          c.notNull().check(sql`author_kind in ('person', 'agent', 'system')`),
        )
        .addColumn('author_id', id)
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) =>
          c
            .notNull()
            .defaultTo('open')
            .check(sql`status in ('open', 'closed')`),
        )
        .addColumn('solution_post_id', id)
        .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('last_posted_at', ts, (c) => c.notNull())
        .addUniqueConstraint('topics_community_slug', ['community_id', 'slug'])
        .addUniqueConstraint('topics_community_id', ['community_id', 'id'])
        .addForeignKeyConstraint('topics_category', ['community_id', 'category_id'], 'categories', [
          'community_id',
          'id',
        ])
        .execute();
      await db.schema
        .createIndex('topics_by_latest')
        .on('topics')
        .columns(['community_id', 'last_posted_at', 'id'])
        .execute();
      await db.schema
        .createIndex('topics_by_created')
        .on('topics')
        .columns(['community_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('topics_by_category')
        .on('topics')
        .columns(['community_id', 'category_id', 'last_posted_at'])
        .execute();

      await db.schema
        .createTable('topic_tags')
        .addColumn('community_id', id, (c) => c.notNull())
        .addColumn('topic_id', id, (c) => c.notNull())
        .addColumn('tag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('topic_tags_pk', ['topic_id', 'tag'])
        .addForeignKeyConstraint(
          'topic_tags_topic',
          ['community_id', 'topic_id'],
          'topics',
          ['community_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('topic_tags_by_tag')
        .on('topic_tags')
        .columns(['community_id', 'tag'])
        .execute();

      await db.schema
        .createTable('posts')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) => c.notNull())
        .addColumn('topic_id', id, (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('author_kind', 'text', (c) =>
          c.notNull().check(sql`author_kind in ('person', 'agent', 'system')`),
        )
        .addColumn('author_id', id)
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('edited_at', ts)
        .addUniqueConstraint('posts_topic_position', ['topic_id', 'position'])
        .addForeignKeyConstraint(
          'posts_topic',
          ['community_id', 'topic_id'],
          'topics',
          ['community_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('posts_by_community')
        .on('posts')
        .columns(['community_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('article_revisions')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) => c.notNull())
        .addColumn('topic_id', id, (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('author_kind', 'text', (c) => c.notNull())
        .addColumn('author_id', id)
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addUniqueConstraint('article_revisions_topic_revision', ['topic_id', 'revision'])
        .addForeignKeyConstraint(
          'article_revisions_topic',
          ['community_id', 'topic_id'],
          'topics',
          ['community_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();

      await db.schema
        .createTable('import_messages')
        .addColumn('community_id', id, (c) => c.notNull())
        .addColumn('message_key', 'text', (c) => c.notNull())
        .addColumn('topic_id', id, (c) => c.notNull())
        .addColumn('post_id', id, (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('import_messages_pk', ['community_id', 'message_key'])
        .addForeignKeyConstraint(
          'import_messages_topic',
          ['community_id', 'topic_id'],
          'topics',
          ['community_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();

      await db.schema
        .createTable('import_people')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('identity_hash', 'text', (c) => c.notNull())
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('import_people_pk', ['community_id', 'identity_hash'])
        .execute();
    },

    async down(db: AnySchemaDb) {
      for (const table of [
        'import_people',
        'import_messages',
        'article_revisions',
        'posts',
        'topic_tags',
        'topics',
        'categories',
        'agents',
        'people',
        'communities',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('the first schema: new tables only');
