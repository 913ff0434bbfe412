// Thread profiles for the re-ranked head of a search (src/search/profiles.ts): each topic's words
// (title, question, accepted answer, replies), tokenized once and stored, so a search reads one
// compact row per candidate topic instead of re-reading and re-tokenizing its posts.
//
//   search_profiles        topic → its term counts per field and the fields' lengths; written only
//                          by the profiler (tokenizing is the application's, not the database's)
//   search_profile_queue   topics whose profile is missing or out of date, with a generation that
//                          every change bumps; the profiler removes an entry only at the
//                          generation it read, so a write racing with it is never lost
//
// The triggers mark a topic in the same transaction as the write that changes what its profile
// holds (a post written, edited, moved or deleted; the topic's title or accepted answer changed;
// a topic created), on every writer, like the search index's own triggers (0005, 0009). A search
// never uses a profile whose topic is queued: it builds that one from the posts instead. Deleting
// a topic deletes its profile. Existing topics are queued here (the profiler fills them in the
// background).
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function searchProfilesMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

const mark = (topic: string) =>
  `insert into search_profile_queue (topic_id) values (${topic}) on conflict (topic_id) do update set gen = search_profile_queue.gen + 1;`;

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create table search_profiles (
         topic_id text primary key,
         community_id text not null,
         terms text not null,
         title_len integer not null,
         question_len integer not null,
         answer_len integer not null,
         replies_len integer not null
       )`,
      // A community's profiles in topic order: the learning pass reads them in batches by topic id.
      `create index search_profiles_community on search_profiles (community_id, topic_id)`,
      `create table search_profile_queue (topic_id text primary key, gen integer not null default 1)`,
      `create trigger search_profile_post_insert after insert on posts begin ${mark('new.topic_id')} end`,
      `create trigger search_profile_post_update after update of body, position, topic_id, community_id on posts begin
         ${mark('new.topic_id')}
         insert into search_profile_queue (topic_id) select old.topic_id where old.topic_id is not new.topic_id
           on conflict (topic_id) do update set gen = search_profile_queue.gen + 1;
       end`,
      `create trigger search_profile_post_delete after delete on posts begin ${mark('old.topic_id')} end`,
      `create trigger search_profile_topic_insert after insert on topics begin ${mark('new.id')} end`,
      `create trigger search_profile_topic_update after update of title, solution_post_id, community_id on topics begin ${mark('new.id')} end`,
      `create trigger search_profile_topic_delete after delete on topics begin
         delete from search_profiles where topic_id = old.id;
       end`,
      `insert into search_profile_queue (topic_id) select id from topics`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_profile_topic_delete',
      'drop trigger if exists search_profile_topic_update',
      'drop trigger if exists search_profile_topic_insert',
      'drop trigger if exists search_profile_post_delete',
      'drop trigger if exists search_profile_post_update',
      'drop trigger if exists search_profile_post_insert',
      'drop table if exists search_profile_queue',
      'drop table if exists search_profiles',
    ])
      await sql.raw(s).execute(db);
  },
};

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create table search_profiles (
         topic_id uuid primary key,
         community_id uuid not null,
         terms text not null,
         title_len integer not null,
         question_len integer not null,
         answer_len integer not null,
         replies_len integer not null
       )`,
      // A community's profiles in topic order: the learning pass reads them in batches by topic id.
      `create index search_profiles_community on search_profiles (community_id, topic_id)`,
      `create table search_profile_queue (topic_id uuid primary key, gen integer not null default 1)`,
      `create function hamlet_search_profile_post() returns trigger language plpgsql as $$
         begin
           if tg_op <> 'DELETE' then ${mark('new.topic_id')} end if;
           if tg_op = 'DELETE' or (tg_op = 'UPDATE' and old.topic_id is distinct from new.topic_id) then ${mark('old.topic_id')} end if;
           return null;
         end $$`,
      `create trigger search_profile_post after insert or delete or update of body, position, topic_id, community_id on posts
         for each row execute function hamlet_search_profile_post()`,
      `create function hamlet_search_profile_topic() returns trigger language plpgsql as $$
         begin
           if tg_op = 'DELETE' then
             delete from search_profiles where topic_id = old.id;
           else
             ${mark('new.id')}
           end if;
           return null;
         end $$`,
      `create trigger search_profile_topic after insert or delete or update of title, solution_post_id, community_id on topics
         for each row execute function hamlet_search_profile_topic()`,
      `insert into search_profile_queue (topic_id) select id from topics`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_profile_topic on topics',
      'drop trigger if exists search_profile_post on posts',
      'drop function if exists hamlet_search_profile_topic()',
      'drop function if exists hamlet_search_profile_post()',
      'drop table if exists search_profile_queue',
      'drop table if exists search_profiles',
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic(
  'new tables and triggers; every topic queued once (one insert of ids, profiled in the background)',
);
