// The words of each public community (its slug, name and description) in a full-text index, so
// finding the communities that fit a subject reads only the communities that match its words,
// never every community. One row per public community, kept by triggers on communities in the
// same transaction as the write that creates, renames, describes, deletes or changes the
// visibility of one: a community made private leaves the index at once, one made public joins it.
//
// SQLite: an FTS5 table (porter stemming, unicode61 without diacritics, as the post index), slug
//   and name at twice the weight of the description at query time (bm25); community_text_rows maps
//   a community id to the FTS row (a table's implicit rowid may change on VACUUM).
// PostgreSQL: community_text(community_id, vector) with a GIN index; the vector is the 'english'
//   configuration (stemming, stop words), slug and name weighted A, the description B.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function communityTextMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

const sqliteIndexRow = (row: 'new') =>
  `insert into community_text_rows (community_id) values (${row}.id);
   insert into community_text (rowid, slug, name, description)
     values ((select rowid from community_text_rows where community_id = ${row}.id),
             replace(${row}.slug, '-', ' '), ${row}.name, ${row}.description);`;

const sqliteUnindexRow = (row: 'old') =>
  `delete from community_text
     where rowid = (select rowid from community_text_rows where community_id = ${row}.id);
   delete from community_text_rows where community_id = ${row}.id;`;

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create table community_text_rows (rowid integer primary key, community_id text not null unique)`,
      `create virtual table community_text using fts5(slug, name, description, tokenize = 'porter unicode61 remove_diacritics 2')`,
      `create trigger community_text_insert after insert on communities when new.visibility = 'public' begin
         ${sqliteIndexRow('new')}
       end`,
      `create trigger community_text_update after update of slug, name, description, visibility on communities begin
         ${sqliteUnindexRow('old')}
         insert into community_text_rows (community_id) select new.id where new.visibility = 'public';
         insert into community_text (rowid, slug, name, description)
           select r.rowid, replace(new.slug, '-', ' '), new.name, new.description
           from community_text_rows r where r.community_id = new.id and new.visibility = 'public';
       end`,
      `create trigger community_text_delete after delete on communities begin
         ${sqliteUnindexRow('old')}
       end`,
      `insert into community_text_rows (community_id)
         select id from communities where visibility = 'public' order by created_at, id`,
      `insert into community_text (rowid, slug, name, description)
         select r.rowid, replace(c.slug, '-', ' '), c.name, c.description
         from community_text_rows r join communities c on c.id = r.community_id`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists community_text_delete',
      'drop trigger if exists community_text_update',
      'drop trigger if exists community_text_insert',
      'drop table if exists community_text',
      'drop table if exists community_text_rows',
    ])
      await sql.raw(s).execute(db);
  },
};

/** A community's words as PostgreSQL indexes them (`c` names its row). */
const pgVector = (c: string) =>
  `setweight(to_tsvector('english', replace(${c}.slug, '-', ' ') || ' ' || ${c}.name), 'A') ||
   setweight(to_tsvector('english', ${c}.description), 'B')`;

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create table community_text (
         community_id uuid primary key references communities(id) on delete cascade,
         vector tsvector not null
       )`,
      `create index community_text_vector on community_text using gin (vector)`,
      `create function hamlet_community_text() returns trigger language plpgsql as $$
         begin
           if new.visibility = 'public' then
             insert into community_text (community_id, vector) values (new.id, ${pgVector('new')})
               on conflict (community_id) do update set vector = excluded.vector;
           elsif tg_op = 'UPDATE' then
             delete from community_text where community_id = new.id;
           end if;
           return null;
         end $$`,
      `create trigger community_text after insert or update of slug, name, description, visibility
         on communities for each row execute function hamlet_community_text()`,
      `insert into community_text (community_id, vector)
         select c.id, ${pgVector('c')} from communities c where c.visibility = 'public'`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists community_text on communities',
      'drop function if exists hamlet_community_text()',
      'drop table if exists community_text',
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic(
  'a new index of the public communities (one row each) and triggers',
);
