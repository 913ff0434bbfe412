// Thread-profile queue generations that never repeat. A queue entry leaves only at the generation
// the profiler read (src/search/profiles.ts), and its profile is written only if that entry was
// still there. With a counter per row that restarts at 1, an entry removed by one instance and
// queued again by a later write could carry the very generation another instance read before the
// write: that instance would then remove the new entry and store a profile of the older text. Every
// generation now comes from one counter (a sequence on PostgreSQL, a one-row table on SQLite), so
// a generation read once is never seen again.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function searchProfileGenerationsMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

export const sqliteMark = (topic: string, where = '') => `
  update search_profile_gen set n = n + 1;
  insert into search_profile_queue (topic_id, gen) select ${topic}, (select n from search_profile_gen) ${where}
    on conflict (topic_id) do update set gen = excluded.gen;`;

/** 0021's marking: a counter per row. */
const sqliteMarkPerRow = (topic: string, where = '') => `
  insert into search_profile_queue (topic_id) select ${topic} ${where}
    on conflict (topic_id) do update set gen = search_profile_queue.gen + 1;`;

/** The triggers of 0021 with a given way of marking a topic. */
const sqliteTriggers = (mark: (topic: string, where?: string) => string) => [
  'drop trigger search_profile_post_insert',
  'drop trigger search_profile_post_update',
  'drop trigger search_profile_post_delete',
  'drop trigger search_profile_topic_insert',
  'drop trigger search_profile_topic_update',
  `create trigger search_profile_post_insert after insert on posts begin ${mark('new.topic_id')} end`,
  `create trigger search_profile_post_update after update of body, position, topic_id, community_id on posts begin
     ${mark('new.topic_id')}
     ${mark('old.topic_id', 'where old.topic_id is not new.topic_id')}
   end`,
  `create trigger search_profile_post_delete after delete on posts begin ${mark('old.topic_id')} end`,
  `create trigger search_profile_topic_insert after insert on topics begin ${mark('new.id')} end`,
  `create trigger search_profile_topic_update after update of title, solution_post_id, community_id on topics begin ${mark('new.id')} end`,
];

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create table search_profile_gen (n integer not null)`,
      `insert into search_profile_gen (n) select coalesce(max(gen), 0) from search_profile_queue`,
      ...sqliteTriggers(sqliteMark),
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [...sqliteTriggers(sqliteMarkPerRow), 'drop table search_profile_gen'])
      await sql.raw(s).execute(db);
  },
};

export const pgMark = (gen: string) => (topic: string) =>
  `insert into search_profile_queue (topic_id) values (${topic}) on conflict (topic_id) do update set gen = ${gen};`;

/** 0021's trigger functions with a given way of marking a topic. */
const pgFunctions = (mark: (topic: string) => string) => [
  `create or replace function hamlet_search_profile_post() returns trigger language plpgsql as $$
     begin
       if tg_op <> 'DELETE' then ${mark('new.topic_id')} end if;
       if tg_op = 'DELETE' or (tg_op = 'UPDATE' and old.topic_id is distinct from new.topic_id) then ${mark('old.topic_id')} end if;
       return null;
     end $$`,
  `create or replace function hamlet_search_profile_topic() returns trigger language plpgsql as $$
     begin
       if tg_op = 'DELETE' then
         delete from search_profiles where topic_id = old.id;
       else
         ${mark('new.id')}
       end if;
       return null;
     end $$`,
];

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create sequence search_profile_gen as bigint`,
      `select setval('search_profile_gen', (select coalesce(max(gen), 0) + 1 from search_profile_queue), false)`,
      `alter table search_profile_queue alter column gen type bigint, alter column gen set default nextval('search_profile_gen')`,
      ...pgFunctions(pgMark(`nextval('search_profile_gen')`)),
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      ...pgFunctions(pgMark('search_profile_queue.gen + 1')),
      `alter table search_profile_queue alter column gen set default 1, alter column gen type integer`,
      'drop sequence search_profile_gen',
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic(
  'a sequence and triggers; retypes the profile queue (small: emptied as topics are profiled)',
);
