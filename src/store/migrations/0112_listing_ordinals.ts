// Ordinals for listings split into files of a fixed size (the sitemaps): every community has an
// ordinal in the order communities were created (1, 2, 3, …, across all of them), and every topic
// one in the order its community's topics were created (1, 2, 3, … within the community; the
// community keeps the last one given in topic_ordinals). File k of a listing is then the ordinals
// ((k-1)·size, k·size]: one index range, at most `size` rows, and the number of files is read from
// one row (the last ordinal given), whatever the number of communities or topics. Ordinals are
// never reused: a deleted or private row leaves a gap, so files may hold fewer than `size`.
//
// Triggers give them on every writer (the application, an import, psql), in the write's
// transaction. SQLite: after the insert, the next ordinal (the largest + 1, from the index; writes
// are serialised). PostgreSQL: a sequence for communities; a topic takes the next of its
// community's topic_ordinals (the update locks that one community row until the insert commits,
// as the category's topic_count does for its category). Existing rows are numbered in creation
// order here.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function listingOrdinalsMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

const backfill = [
  `update communities set ordinal = o.n
     from (select id, row_number() over (order by created_at, id) as n from communities) o
     where o.id = communities.id`,
  `update topics set ordinal = o.n
     from (select id, row_number() over (partition by community_id order by created_at, id) as n
           from topics) o
     where o.id = topics.id`,
  `update communities set topic_ordinals =
     coalesce((select max(t.ordinal) from topics t where t.community_id = communities.id), 0)`,
];

const indexes = [
  `create unique index communities_by_ordinal on communities (ordinal)`,
  `create index topics_by_ordinal on topics (community_id, ordinal)`,
];

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `alter table communities add column ordinal integer`,
      `alter table communities add column topic_ordinals integer not null default 0`,
      `alter table topics add column ordinal integer`,
      ...backfill,
      ...indexes,
      `create trigger community_ordinal after insert on communities begin
         update communities set ordinal = (select coalesce(max(ordinal), 0) + 1 from communities)
           where id = new.id;
       end`,
      `create trigger topic_ordinal after insert on topics begin
         update communities set topic_ordinals = topic_ordinals + 1 where id = new.community_id;
         update topics set ordinal = (select topic_ordinals from communities where id = new.community_id)
           where id = new.id;
       end`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists topic_ordinal',
      'drop trigger if exists community_ordinal',
      'drop index if exists topics_by_ordinal',
      'drop index if exists communities_by_ordinal',
      'alter table topics drop column ordinal',
      'alter table communities drop column topic_ordinals',
      'alter table communities drop column ordinal',
    ])
      await sql.raw(s).execute(db);
  },
};

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `alter table communities add column ordinal bigint`,
      `alter table communities add column topic_ordinals bigint not null default 0`,
      `alter table topics add column ordinal bigint`,
      ...backfill,
      ...indexes,
      `create sequence communities_ordinal_seq owned by communities.ordinal`,
      `select setval('communities_ordinal_seq', coalesce((select max(ordinal) from communities), 0) + 1, false)`,
      `alter table communities alter column ordinal set default nextval('communities_ordinal_seq')`,
      `create function hamlet_topic_ordinal() returns trigger language plpgsql as $$
         begin
           update communities set topic_ordinals = topic_ordinals + 1 where id = new.community_id
             returning topic_ordinals into new.ordinal;
           return new;
         end $$`,
      `create trigger topic_ordinal before insert on topics
         for each row execute function hamlet_topic_ordinal()`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists topic_ordinal on topics',
      'drop function if exists hamlet_topic_ordinal()',
      'alter table topics drop column ordinal',
      'alter table communities drop column topic_ordinals',
      'alter table communities drop column ordinal',
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'numbers every topic and community (rewrites topics) and indexes them',
);
