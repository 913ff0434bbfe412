// Each category keeps the number of its topics that are listed (topic_count: neither deleted nor
// merged away), so the home page and the category list read it instead of counting every topic of
// the community on each view (12 ms a home page on PostgreSQL at 100k posts). Triggers keep it in
// the same transaction as the write that adds, moves, deletes, restores, merges or removes a
// topic, on every writer (the application, an import, a cascade), like the search index's own
// triggers. The count it replaces also counted deleted and merged topics, which no list shows.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function categoryTopicCountsMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

/** The row counts when it is listed: neither deleted nor merged into another topic. */
const change = (by: '+ 1' | '- 1', row: 'new' | 'old') =>
  `update categories set topic_count = topic_count ${by} where community_id = ${row}.community_id and id = ${row}.category_id and ${row}.deleted_at is null and ${row}.merged_into is null;`;

const backfill = `update categories set topic_count = (select count(*) from topics t where t.community_id = categories.community_id and t.category_id = categories.id and t.deleted_at is null and t.merged_into is null)`;

/** The columns whose change can move a topic into, out of or between counts. */
const COUNTED = 'category_id, community_id, deleted_at, merged_into';

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `alter table categories add column topic_count integer not null default 0`,
      `create trigger category_topic_count_insert after insert on topics begin ${change('+ 1', 'new')} end`,
      `create trigger category_topic_count_delete after delete on topics begin ${change('- 1', 'old')} end`,
      `create trigger category_topic_count_update after update of ${COUNTED} on topics begin
         ${change('- 1', 'old')}
         ${change('+ 1', 'new')}
       end`,
      backfill,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists category_topic_count_update',
      'drop trigger if exists category_topic_count_delete',
      'drop trigger if exists category_topic_count_insert',
      'alter table categories drop column topic_count',
    ])
      await sql.raw(s).execute(db);
  },
};

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `alter table categories add column topic_count integer not null default 0`,
      `create function hamlet_category_topic_count() returns trigger language plpgsql as $$
         begin
           if tg_op <> 'INSERT' then ${change('- 1', 'old')} end if;
           if tg_op <> 'DELETE' then ${change('+ 1', 'new')} end if;
           return null;
         end $$`,
      `create trigger category_topic_count after insert or delete or update of ${COUNTED} on topics
         for each row execute function hamlet_category_topic_count()`,
      backfill,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists category_topic_count on topics',
      'drop function if exists hamlet_category_topic_count()',
      'alter table categories drop column topic_count',
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  "counts every category's topics (a backfill that locks categories while it reads topics)",
);
