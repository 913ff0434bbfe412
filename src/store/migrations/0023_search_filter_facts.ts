// Filtered search without a join per match: the columns the search filters test (date, position,
// author, category, whether the topic is solved or the post is its accepted answer) kept beside
// each indexed post, so a filtered search reads one small row per match instead of its post and
// its topic (src/search/sqlite-filtered.ts, src/search/postgres-ranked.ts).
//
//   solution   0: the topic has no accepted answer, 1: it has one (another post), 2: this post is it
//   author     lower(author_name): the author filter is case-insensitive
//
// SQLite: search_facts, keyed by the FTS5 rowid (search_rows, migration 0009), filled by triggers
//   on search_rows (a post indexed, moved or deleted) and kept by triggers on posts (position,
//   author, date) and topics (category, accepted answer).
// PostgreSQL: the same columns on search_documents, set by the index trigger of 0009 (extended to
//   the author and date) and a topic trigger.
// Both back-filled here.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function searchFilterFactsMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

const solution = (post: string, answer: string) =>
  `case when ${answer} = ${post} then 2 when ${answer} is not null then 1 else 0 end`;

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    const facts = `select r.rowid, p.id, p.topic_id, p.community_id, p.created_at, p.position, lower(p.author_name), t.category_id,
        ${solution('p.id', 't.solution_post_id')}
      from search_rows r join posts p on p.id = r.post_id join topics t on t.id = p.topic_id`;
    for (const s of [
      `create table search_facts (
         rowid integer primary key,
         post_id text not null,
         topic_id text not null,
         community_id text not null,
         created_at text not null,
         position integer not null,
         author text not null,
         category_id text not null,
         solution integer not null
       )`,
      `create trigger search_facts_insert after insert on search_rows begin
         insert or replace into search_facts (rowid, post_id, topic_id, community_id, created_at, position, author, category_id, solution)
           ${facts} where r.rowid = new.rowid;
       end`,
      `create trigger search_facts_delete after delete on search_rows begin
         delete from search_facts where rowid = old.rowid;
       end`,
      `create trigger search_facts_post after update of position, author_name, created_at on posts begin
         update search_facts set position = new.position, author = lower(new.author_name), created_at = new.created_at
           where rowid = (select rowid from search_rows where post_id = new.id);
       end`,
      `create trigger search_facts_topic after update of category_id, solution_post_id on topics begin
         update search_facts set category_id = new.category_id, solution = ${solution('post_id', 'new.solution_post_id')}
           where rowid in (select r.rowid from search_rows r join posts p on p.id = r.post_id where p.topic_id = new.id);
       end`,
      `insert into search_facts (rowid, post_id, topic_id, community_id, created_at, position, author, category_id, solution) ${facts}`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_facts_topic',
      'drop trigger if exists search_facts_post',
      'drop trigger if exists search_facts_delete',
      'drop trigger if exists search_facts_insert',
      'drop table if exists search_facts',
    ])
      await sql.raw(s).execute(db);
  },
};

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `alter table search_documents add column created_at timestamptz, add column position integer, add column author text,
         add column category_id uuid, add column solution smallint`,
      `update search_documents d set created_at = p.created_at, position = p.position, author = lower(p.author_name),
         category_id = t.category_id, solution = ${solution('p.id', 't.solution_post_id')}
         from posts p join topics t on t.id = p.topic_id where p.id = d.post_id`,
      `create or replace function hamlet_search_index_post() returns trigger language plpgsql as $$
         declare v tsvector; cat uuid; sol smallint;
         begin
           select hamlet_search_vector(t.title, new.body, new.position = 1), t.category_id, ${solution('new.id', 't.solution_post_id')}
             into v, cat, sol from topics t where t.id = new.topic_id;
           insert into search_documents (post_id, community_id, topic_id, vector, created_at, position, author, category_id, solution)
             values (new.id, new.community_id, new.topic_id, coalesce(v, ''::tsvector), new.created_at, new.position, lower(new.author_name), cat, coalesce(sol, 0))
             on conflict (post_id) do update
               set vector = excluded.vector, community_id = excluded.community_id, topic_id = excluded.topic_id,
                   created_at = excluded.created_at, position = excluded.position, author = excluded.author,
                   category_id = excluded.category_id, solution = excluded.solution;
           insert into search_terms (term) select unnest(tsvector_to_array(v)) on conflict do nothing;
           return null;
         end $$`,
      `drop trigger if exists search_posts_index on posts`,
      `create trigger search_posts_index after insert or update of body, position, topic_id, community_id, author_name, created_at on posts
         for each row execute function hamlet_search_index_post()`,
      `create function hamlet_search_facts_topic() returns trigger language plpgsql as $$
         begin
           update search_documents set category_id = new.category_id, solution = ${solution('post_id', 'new.solution_post_id')}
             where topic_id = new.id;
           return null;
         end $$`,
      `create trigger search_facts_topic after update of category_id, solution_post_id on topics
         for each row execute function hamlet_search_facts_topic()`,
      `create index search_documents_topic on search_documents (topic_id)`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      `drop index if exists search_documents_topic`,
      `drop trigger if exists search_facts_topic on topics`,
      `drop function if exists hamlet_search_facts_topic()`,
      `drop trigger if exists search_posts_index on posts`,
      `create or replace function hamlet_search_index_post() returns trigger language plpgsql as $$
         declare v tsvector;
         begin
           select hamlet_search_vector(t.title, new.body, new.position = 1) into v from topics t where t.id = new.topic_id;
           insert into search_documents (post_id, community_id, topic_id, vector)
             values (new.id, new.community_id, new.topic_id, coalesce(v, ''::tsvector))
             on conflict (post_id) do update
               set vector = excluded.vector, community_id = excluded.community_id, topic_id = excluded.topic_id;
           insert into search_terms (term) select unnest(tsvector_to_array(v)) on conflict do nothing;
           return null;
         end $$`,
      `create trigger search_posts_index after insert or update of body, position, topic_id, community_id on posts
         for each row execute function hamlet_search_index_post()`,
      `alter table search_documents drop column created_at, drop column position, drop column author, drop column category_id, drop column solution`,
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'rewrites every search row with its filter columns and indexes them',
);
