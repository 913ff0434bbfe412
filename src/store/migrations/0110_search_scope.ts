// Which indexed posts the network may search: every post of a public community, marked beside the
// index so that a search across the network tests one flag per match instead of listing every
// public community (a list that grows with the network). Triggers keep the mark in the same
// transaction as the community's visibility changes and as each community's first post.
//
// SQLite: search_communities (one row per community with posts, migration 0009) gains `public`;
//   the rowid of a match says its community (rowid >> 42), whose row is one primary-key lookup.
// PostgreSQL: search_documents gains `public`, set when a post is indexed and rewritten for a
//   community's posts when its visibility changes.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function searchScopeMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `alter table search_communities add column public integer not null default 0`,
      `update search_communities set public = coalesce((select c.visibility = 'public' from communities c where c.id = search_communities.community_id), 0)`,
      `create trigger search_communities_public after insert on search_communities begin
         update search_communities set public = coalesce((select c.visibility = 'public' from communities c where c.id = new.community_id), 0)
           where no = new.no;
       end`,
      `create trigger search_communities_visibility after update of visibility on communities begin
         update search_communities set public = (new.visibility = 'public') where community_id = new.id;
       end`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_communities_visibility',
      'drop trigger if exists search_communities_public',
      'alter table search_communities drop column public',
    ])
      await sql.raw(s).execute(db);
  },
};

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `alter table search_documents add column public boolean not null default false`,
      `update search_documents d set public = true from communities c where c.id = d.community_id and c.visibility = 'public'`,
      `create function hamlet_search_document_public() returns trigger language plpgsql as $$
         begin
           new.public := coalesce((select c.visibility = 'public' from communities c where c.id = new.community_id), false);
           return new;
         end $$`,
      `create trigger search_documents_public before insert on search_documents
         for each row execute function hamlet_search_document_public()`,
      `create function hamlet_search_community_visibility() returns trigger language plpgsql as $$
         begin
           update search_documents set public = (new.visibility = 'public') where community_id = new.id;
           return null;
         end $$`,
      `create trigger search_communities_visibility after update of visibility on communities
         for each row when (old.visibility is distinct from new.visibility)
         execute function hamlet_search_community_visibility()`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_communities_visibility on communities',
      'drop function if exists hamlet_search_community_visibility()',
      'drop trigger if exists search_documents_public on search_documents',
      'drop function if exists hamlet_search_document_public()',
      'alter table search_documents drop column public',
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  "rewrites every search row with its community's visibility (PostgreSQL)",
);
