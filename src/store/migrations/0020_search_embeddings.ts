// Post vectors for semantic and hybrid search when an embedding endpoint is configured
// (src/search/embeddings.ts): one row per post and model, the vector as little-endian float32
// bytes. Filled in the background; a post's row goes when the post goes or its body changes, so
// the background fill embeds the new text (nothing stale is ever ranked).
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function searchEmbeddingsMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create table search_embeddings (
         post_id text primary key, community_id text not null, model text not null, dims integer not null, vector blob not null)`,
      `create index search_embeddings_community on search_embeddings (community_id)`,
      `create trigger search_embeddings_delete after delete on posts begin
         delete from search_embeddings where post_id = old.id;
       end`,
      `create trigger search_embeddings_stale after update of body on posts when old.body is not new.body begin
         delete from search_embeddings where post_id = new.id;
       end`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_embeddings_stale',
      'drop trigger if exists search_embeddings_delete',
      'drop table if exists search_embeddings',
    ]) {
      await sql.raw(s).execute(db);
    }
  },
};

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create table search_embeddings (
         post_id uuid primary key references posts (id) on delete cascade, community_id uuid not null,
         model text not null, dims integer not null, vector bytea not null)`,
      `create index search_embeddings_community on search_embeddings (community_id)`,
      `create function hamlet_search_embedding_stale() returns trigger language plpgsql as $$
         begin delete from search_embeddings where post_id = new.id; return null; end $$`,
      `create trigger search_embeddings_stale after update of body on posts
         for each row when (old.body is distinct from new.body) execute function hamlet_search_embedding_stale()`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_embeddings_stale on posts',
      'drop function if exists hamlet_search_embedding_stale()',
      'drop table if exists search_embeddings',
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
