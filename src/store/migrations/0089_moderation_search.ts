// The search index follows moderators (issue 24): a soft-deleted post, or every post of a
// soft-deleted topic, leaves the index, and comes back when restored; a topic's thread profile is
// queued again when a post or the topic is deleted or restored and when another topic is closed
// as its duplicate or stops being one (the original's profile holds the duplicates' wording,
// "asked as": src/search/profiles.ts). Moves between categories and merges already follow through
// the triggers of 0009 and 0023 (category_id and topic_id updates).
//
// SQLite: a restored topic's posts are indexed again in one statement, numbered after the slots
//   its topic holds in search_rows (0009's rowid layout: community, topic, slot).
// PostgreSQL: a restored post, or each live post of a restored topic, has its body touched so that
//   0009's index trigger (and 0021's profile trigger) index it again.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import { COMMUNITY_SHIFT, indexPost, SLOT_BITS, unindexPost } from './0009_search_speed.ts';
import { pgMark, sqliteMark } from './0072_search_profile_generations.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function moderationSearchMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

const deletedNow = 'old.deleted_at is null and new.deleted_at is not null';
const restoredNow = 'old.deleted_at is not null and new.deleted_at is null';

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create trigger search_posts_soft_delete after update of deleted_at on posts when ${deletedNow} begin
         ${unindexPost}
         ${sqliteMark('new.topic_id')}
       end`,
      `create trigger search_posts_restore after update of deleted_at on posts when ${restoredNow}
         and (select deleted_at from topics where id = new.topic_id) is null begin
         ${indexPost}
         ${sqliteMark('new.topic_id')}
       end`,
      `create trigger search_topics_soft_delete after update of deleted_at on topics when ${deletedNow} begin
         delete from search_fts where rowid in (select r.rowid from search_rows r join posts p on p.id = r.post_id where p.topic_id = new.id);
         delete from search_rows where post_id in (select id from posts where topic_id = new.id);
         ${sqliteMark('new.id')}
       end`,
      `create trigger search_topics_restore after update of deleted_at on topics when ${restoredNow} begin
         insert into search_rows (rowid, post_id)
           select (c.no << ${COMMUNITY_SHIFT}) | (st.no << ${SLOT_BITS}) | (coalesce((
               select max(r.rowid & ${(1 << SLOT_BITS) - 1}) from search_rows r
               where r.rowid between ((c.no << ${COMMUNITY_SHIFT}) | (st.no << ${SLOT_BITS}))
                                 and ((c.no << ${COMMUNITY_SHIFT}) | (st.no << ${SLOT_BITS}) | ${(1 << SLOT_BITS) - 1})), 0)
               + row_number() over (order by p.position)),
             p.id
           from posts p join search_topics st on st.topic_id = p.topic_id join search_communities c on c.no = st.community_no
           where p.topic_id = new.id and p.deleted_at is null
             and not exists (select 1 from search_rows x where x.post_id = p.id);
         insert into search_fts (rowid, title, context, body)
           select r.rowid,
                  case when p.position = 1 then new.title else '' end,
                  case when p.position = 1 then '' else new.title end,
                  p.body
           from search_rows r join posts p on p.id = r.post_id
           where p.topic_id = new.id and r.rowid not in (select rowid from search_fts where rowid = r.rowid);
         ${sqliteMark('new.id')}
       end`,
      `create trigger search_profile_duplicate after update of duplicate_of on topics
         when old.duplicate_of is not new.duplicate_of begin
         ${sqliteMark('new.duplicate_of', 'where new.duplicate_of is not null')}
         ${sqliteMark('old.duplicate_of', 'where old.duplicate_of is not null')}
       end`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const t of [
      'search_profile_duplicate',
      'search_topics_restore',
      'search_topics_soft_delete',
      'search_posts_restore',
      'search_posts_soft_delete',
    ])
      await sql.raw(`drop trigger if exists ${t}`).execute(db);
  },
};

const mark = pgMark(`nextval('search_profile_gen')`);

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    for (const s of [
      `create function hamlet_search_moderated_post() returns trigger language plpgsql as $$
         begin
           if new.deleted_at is not null then
             delete from search_documents where post_id = new.id;
             ${mark('new.topic_id')}
           else
             update posts set body = body where id = new.id;
           end if;
           return null;
         end $$`,
      `create trigger search_posts_soft_delete after update of deleted_at on posts
         for each row when (${deletedNow} or ${restoredNow}) execute function hamlet_search_moderated_post()`,
      `create function hamlet_search_moderated_topic() returns trigger language plpgsql as $$
         begin
           if new.deleted_at is not null then
             delete from search_documents where topic_id = new.id;
           else
             update posts set body = body where topic_id = new.id and deleted_at is null;
           end if;
           ${mark('new.id')}
           return null;
         end $$`,
      `create trigger search_topics_soft_delete after update of deleted_at on topics
         for each row when (${deletedNow} or ${restoredNow}) execute function hamlet_search_moderated_topic()`,
      `create function hamlet_search_profile_duplicate() returns trigger language plpgsql as $$
         begin
           if new.duplicate_of is not null then ${mark('new.duplicate_of')} end if;
           if old.duplicate_of is not null then ${mark('old.duplicate_of')} end if;
           return null;
         end $$`,
      `create trigger search_profile_duplicate after update of duplicate_of on topics
         for each row when (old.duplicate_of is distinct from new.duplicate_of)
         execute function hamlet_search_profile_duplicate()`,
    ])
      await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_profile_duplicate on topics',
      'drop function if exists hamlet_search_profile_duplicate()',
      'drop trigger if exists search_topics_soft_delete on topics',
      'drop function if exists hamlet_search_moderated_topic()',
      'drop trigger if exists search_posts_soft_delete on posts',
      'drop function if exists hamlet_search_moderated_post()',
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('triggers only');
