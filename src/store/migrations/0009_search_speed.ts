// Search speed: the index itself knows each document's community and topic, so the hot path
// (search_community: match, community filter, rank, one result per topic, total topic count) runs
// inside the engine's own index scan without joining every match to posts and topics.
//
// SQLite: the FTS5 rowid of a post encodes where it lives,
//     rowid = community_no << 42 | topic_no << 20 | slot
//   community_no (21 bits, search_communities) and topic_no (22 bits per community,
//   search_topics) are small numbers handed out on first use; slot (20 bits) numbers the posts of a
//   topic. A community filter is then a rowid range FTS5 seeks to, and the topic of a match is
//   rowid >> 20, so "distinct topics among all matches" needs no lookup at all. Limits: 2 097 151
//   communities, 4 194 303 topics per community, 1 048 575 posts per topic; past them a write
//   fails with a message saying which. A post moved to another topic gets a new rowid.
// PostgreSQL: search_documents gains topic_id (kept by the same trigger), so the total topic count
//   and the per-topic grouping of a candidate pool need no join either.
//
// The triggers of 0005_search are replaced; the tables they feed are rebuilt and back-filled here.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import { searchMigration } from './0005_search.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function searchSpeedMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

export const SLOT_BITS = 20;
const TOPIC_BITS = 22;
export const COMMUNITY_SHIFT = SLOT_BITS + TOPIC_BITS;

/** The SQL expression allocating the rowid for post `new` (community, topic numbers must exist). */
const newRowid = `(
  select (c.no << ${COMMUNITY_SHIFT}) | (t.no << ${SLOT_BITS}) | (coalesce((
      select r.rowid & ${(1 << SLOT_BITS) - 1} from search_rows r
      where r.rowid between ((c.no << ${COMMUNITY_SHIFT}) | (t.no << ${SLOT_BITS}))
                        and ((c.no << ${COMMUNITY_SHIFT}) | (t.no << ${SLOT_BITS}) | ${(1 << SLOT_BITS) - 1})
      order by r.rowid desc limit 1), 0) + 1)
  from search_topics t join search_communities c on c.no = t.community_no
  where t.topic_id = new.topic_id)`;

export const indexPost = `
  insert or ignore into search_communities (community_id) values (new.community_id);
  select raise(abort, 'search index: more than 2097151 communities')
    where (select no from search_communities where community_id = new.community_id) >= ${1 << 21};
  insert or ignore into search_topics (topic_id, community_no, no)
    select new.topic_id, c.no, coalesce((select max(no) from search_topics where community_no = c.no), 0) + 1
    from search_communities c where c.community_id = new.community_id;
  select raise(abort, 'search index: more than 4194303 topics in one community')
    where (select no from search_topics where topic_id = new.topic_id) >= ${1 << TOPIC_BITS};
  select raise(abort, 'search index: more than 1048575 posts in one topic')
    where (${newRowid} & ${(1 << SLOT_BITS) - 1}) = 0;
  insert into search_rows (rowid, post_id) values (${newRowid}, new.id);
  insert into search_fts (rowid, title, context, body)
    select (select rowid from search_rows where post_id = new.id),
           case when new.position = 1 then t.title else '' end,
           case when new.position = 1 then '' else t.title end,
           new.body
    from topics t where t.id = new.topic_id;`;

export const unindexPost = `
  delete from search_fts where rowid = (select rowid from search_rows where post_id = old.id);
  delete from search_rows where post_id = old.id;`;

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    const statements = [
      'drop trigger if exists search_topics_title',
      'drop trigger if exists search_posts_delete',
      'drop trigger if exists search_posts_update',
      'drop trigger if exists search_posts_insert',
      'drop table if exists search_vocab',
      'drop table if exists search_fts',
      'drop table if exists search_rows',
      `create table search_communities (no integer primary key, community_id text not null unique)`,
      `create table search_topics (topic_id text primary key, community_no integer not null, no integer not null, unique (community_no, no))`,
      `create table search_rows (rowid integer primary key, post_id text not null unique)`,
      `create virtual table search_fts using fts5(title, context, body, tokenize = 'porter unicode61 remove_diacritics 2')`,
      `create virtual table search_vocab using fts5vocab(search_fts, 'row')`,
      `create trigger search_posts_insert after insert on posts begin ${indexPost} end`,
      `create trigger search_posts_update after update of body, position on posts begin
         update search_fts set
           title = case when new.position = 1 then (select title from topics where id = new.topic_id) else '' end,
           context = case when new.position = 1 then '' else (select title from topics where id = new.topic_id) end,
           body = new.body
         where rowid = (select rowid from search_rows where post_id = new.id);
       end`,
      `create trigger search_posts_move after update of topic_id, community_id on posts
         when old.topic_id is not new.topic_id or old.community_id is not new.community_id begin
         ${unindexPost}
         ${indexPost}
       end`,
      `create trigger search_posts_delete after delete on posts begin ${unindexPost} end`,
      `create trigger search_topics_delete after delete on topics begin
         delete from search_topics where topic_id = old.id;
       end`,
      `create trigger search_topics_title after update of title on topics begin
         update search_fts set title = new.title
           where rowid in (select r.rowid from search_rows r join posts p on p.id = r.post_id where p.topic_id = new.id and p.position = 1);
         update search_fts set context = new.title
           where rowid in (select r.rowid from search_rows r join posts p on p.id = r.post_id where p.topic_id = new.id and p.position > 1);
       end`,
      // Back-fill: numbers in creation order, rows inserted in rowid order.
      `insert into search_communities (community_id)
         select id from communities where id in (select community_id from topics) order by created_at, id`,
      `insert into search_topics (topic_id, community_no, no)
         select t.id, c.no, row_number() over (partition by c.no order by t.created_at, t.id)
         from topics t join search_communities c on c.community_id = t.community_id`,
      `insert into search_rows (rowid, post_id)
         select (t.community_no << ${COMMUNITY_SHIFT}) | (t.no << ${SLOT_BITS})
                  | row_number() over (partition by p.topic_id order by p.position, p.created_at, p.id), p.id
         from posts p join search_topics t on t.topic_id = p.topic_id`,
      `insert into search_fts (rowid, title, context, body)
         select r.rowid,
                case when p.position = 1 then t.title else '' end,
                case when p.position = 1 then '' else t.title end,
                p.body
         from search_rows r join posts p on p.id = r.post_id join topics t on t.id = p.topic_id
         order by r.rowid`,
    ];
    for (const s of statements) await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_topics_title',
      'drop trigger if exists search_topics_delete',
      'drop trigger if exists search_posts_delete',
      'drop trigger if exists search_posts_move',
      'drop trigger if exists search_posts_update',
      'drop trigger if exists search_posts_insert',
      'drop table if exists search_vocab',
      'drop table if exists search_fts',
      'drop table if exists search_rows',
      'drop table if exists search_topics',
      'drop table if exists search_communities',
    ])
      await sql.raw(s).execute(db);
    await searchMigration('sqlite').up(db);
  },
};

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    const statements = [
      `alter table search_documents add column topic_id uuid`,
      `update search_documents d set topic_id = p.topic_id from posts p where p.id = d.post_id`,
      `alter table search_documents alter column topic_id set not null`,
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
      `drop trigger if exists search_posts_index on posts`,
      `create trigger search_posts_index after insert or update of body, position, topic_id, community_id on posts
         for each row execute function hamlet_search_index_post()`,
    ];
    for (const s of statements) await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      `drop trigger if exists search_posts_index on posts`,
      `create or replace function hamlet_search_index_post() returns trigger language plpgsql as $$
         declare v tsvector;
         begin
           select hamlet_search_vector(t.title, new.body, new.position = 1) into v from topics t where t.id = new.topic_id;
           insert into search_documents (post_id, community_id, vector) values (new.id, new.community_id, coalesce(v, ''::tsvector))
             on conflict (post_id) do update set vector = excluded.vector, community_id = excluded.community_id;
           insert into search_terms (term) select unnest(tsvector_to_array(v)) on conflict do nothing;
           return null;
         end $$`,
      `create trigger search_posts_index after insert or update of body, position, topic_id on posts
         for each row execute function hamlet_search_index_post()`,
      `alter table search_documents drop column topic_id`,
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'rebuilds the search index (SQLite) and rewrites every search row with its topic (PostgreSQL)',
);
