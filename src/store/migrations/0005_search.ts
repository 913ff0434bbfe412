// Full-text search index, kept in step with posts and topics by database triggers, so every writer
// (content service, importer, approvals, a psql session) is indexed in the same transaction and a
// crash can never leave the index behind the tables. Existing rows are back-filled here.
//
// One indexed document per post. The topic title is indexed with the first post (the question or
// the article body) at full weight and, at a lower weight, with every reply, so a reply that answers
// a question is found by the question's words too.
//
// SQLite: an FTS5 table (porter stemming, unicode61 with diacritics removed), ranked with bm25().
//   search_rows maps a post id to a stable INTEGER rowid (posts' own implicit rowid may change on
//   VACUUM); search_vocab (fts5vocab) exposes the index vocabulary for typo correction.
// PostgreSQL: search_documents(post_id, community_id, vector tsvector) with a GIN index; weight A =
//   title of a first post, B = body, C = title repeated on replies ('english': stemming, stop
//   words). search_terms keeps every lexeme ever indexed (never shrinks; only used to suggest
//   corrections) with a pg_trgm GiST index when the extension can be created.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { needsMaintenance } from './traffic.ts';

export function searchMigration(dialect: Dialect): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

const sqlite: Migration = {
  async up(db: AnySchemaDb) {
    const statements = [
      `create table search_rows (rowid integer primary key, post_id text not null unique)`,
      `create virtual table search_fts using fts5(title, context, body, tokenize = 'porter unicode61 remove_diacritics 2')`,
      `create virtual table search_vocab using fts5vocab(search_fts, 'row')`,
      `create trigger search_posts_insert after insert on posts begin
         insert into search_rows (post_id) values (new.id);
         insert into search_fts (rowid, title, context, body)
           select (select rowid from search_rows where post_id = new.id),
                  case when new.position = 1 then t.title else '' end,
                  case when new.position = 1 then '' else t.title end,
                  new.body
           from topics t where t.id = new.topic_id;
       end`,
      `create trigger search_posts_update after update of body, position, topic_id on posts begin
         update search_fts set
           title = case when new.position = 1 then (select title from topics where id = new.topic_id) else '' end,
           context = case when new.position = 1 then '' else (select title from topics where id = new.topic_id) end,
           body = new.body
         where rowid = (select rowid from search_rows where post_id = new.id);
       end`,
      `create trigger search_posts_delete after delete on posts begin
         delete from search_fts where rowid = (select rowid from search_rows where post_id = old.id);
         delete from search_rows where post_id = old.id;
       end`,
      `create trigger search_topics_title after update of title on topics begin
         update search_fts set title = new.title
           where rowid in (select r.rowid from search_rows r join posts p on p.id = r.post_id where p.topic_id = new.id and p.position = 1);
         update search_fts set context = new.title
           where rowid in (select r.rowid from search_rows r join posts p on p.id = r.post_id where p.topic_id = new.id and p.position > 1);
       end`,
      // Back-fill.
      `insert into search_rows (post_id) select id from posts order by created_at, id`,
      `insert into search_fts (rowid, title, context, body)
         select r.rowid,
                case when p.position = 1 then t.title else '' end,
                case when p.position = 1 then '' else t.title end,
                p.body
         from search_rows r join posts p on p.id = r.post_id join topics t on t.id = p.topic_id`,
    ];
    for (const s of statements) await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_topics_title',
      'drop trigger if exists search_posts_delete',
      'drop trigger if exists search_posts_update',
      'drop trigger if exists search_posts_insert',
      'drop table if exists search_vocab',
      'drop table if exists search_fts',
      'drop table if exists search_rows',
    ])
      await sql.raw(s).execute(db);
  },
};

const postgres: Migration = {
  async up(db: AnySchemaDb) {
    // pg_trgm is a trusted extension (PG 13+): a database owner may create it. When it cannot be
    // created the vocabulary is still kept and typo correction scans it by first letter instead.
    await sql.raw('savepoint search_trgm').execute(db);
    let trigram = true;
    try {
      await sql.raw('create extension if not exists pg_trgm').execute(db);
      await sql.raw('release savepoint search_trgm').execute(db);
    } catch {
      trigram = false;
      await sql.raw('rollback to savepoint search_trgm').execute(db);
    }
    const statements = [
      `create table search_documents (
         post_id uuid primary key references posts (id) on delete cascade,
         community_id uuid not null,
         vector tsvector not null
       )`,
      `create index search_documents_vector on search_documents using gin (vector)`,
      `create table search_terms (term text primary key)`,
      `create function hamlet_search_vector(title text, body text, first boolean) returns tsvector
         language sql immutable parallel safe as $$
           select setweight(to_tsvector('english', coalesce(title, '')), case when first then 'A'::"char" else 'C'::"char" end)
               || setweight(to_tsvector('english', left(coalesce(body, ''), 200000)), 'B')
         $$`,
      `create function hamlet_search_index_post() returns trigger language plpgsql as $$
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
      `create function hamlet_search_index_topic() returns trigger language plpgsql as $$
         begin
           update search_documents d set vector = hamlet_search_vector(new.title, p.body, p.position = 1)
             from posts p where p.topic_id = new.id and d.post_id = p.id;
           insert into search_terms (term) select unnest(tsvector_to_array(to_tsvector('english', new.title))) on conflict do nothing;
           return null;
         end $$`,
      `create trigger search_topics_index after update of title on topics
         for each row when (old.title is distinct from new.title) execute function hamlet_search_index_topic()`,
      // Back-fill.
      `insert into search_documents (post_id, community_id, vector)
         select p.id, p.community_id, hamlet_search_vector(t.title, p.body, p.position = 1)
         from posts p join topics t on t.id = p.topic_id`,
      `insert into search_terms (term) select distinct unnest(tsvector_to_array(vector)) from search_documents on conflict do nothing`,
    ];
    if (trigram)
      statements.push(
        `create index search_terms_trgm on search_terms using gist (term gist_trgm_ops)`,
      );
    for (const s of statements) await sql.raw(s).execute(db);
  },
  async down(db: AnySchemaDb) {
    for (const s of [
      'drop trigger if exists search_topics_index on topics',
      'drop trigger if exists search_posts_index on posts',
      'drop function if exists hamlet_search_index_topic()',
      'drop function if exists hamlet_search_index_post()',
      'drop function if exists hamlet_search_vector(text, text, boolean)',
      'drop table if exists search_terms',
      'drop table if exists search_documents',
    ])
      await sql.raw(s).execute(db);
  },
};

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance('builds the search index from every existing post');
