// The SQLite index checked against the posts it indexes (`hamlet search verify`, tests): every post
// indexed once, no orphan rows, no stale text, rowid or filter facts.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { IndexReport } from './index.ts';
import { COMMUNITY_SHIFT, SLOT_BITS } from './sqlite-rowids.ts';

export async function verifySqliteIndex(db: Kysely<Database>): Promise<IndexReport> {
  const one = async (query: RawBuilder<{ n: number }>) =>
    Number((await query.execute(db)).rows[0]?.n ?? 0);
  const posts = await one(sql`select count(*) as n from posts`);
  const indexed = await one(sql`select count(*) as n from search_fts`);
  const missing = await one(
    sql`select count(*) as n from posts p where not exists (select 1 from search_rows r where r.post_id = p.id)`,
  );
  const orphans =
    (await one(
      sql`select count(*) as n from search_rows r where not exists (select 1 from posts p where p.id = r.post_id)`,
    )) + Math.abs(indexed - (await one(sql`select count(*) as n from search_rows`)));
  const stale = await one(sql`
    select count(*) as n from search_rows r join search_fts f on f.rowid = r.rowid join posts p on p.id = r.post_id join topics t on t.id = p.topic_id
    where f.body is not p.body
       or f.title is not (case when p.position = 1 then t.title else '' end)
       or f.context is not (case when p.position = 1 then '' else t.title end)
       or (r.rowid >> ${sql.lit(SLOT_BITS)}) is not (
            select (st.community_no << ${sql.lit(COMMUNITY_SHIFT - SLOT_BITS)}) | st.no from search_topics st
            join search_communities sc on sc.no = st.community_no and sc.community_id = p.community_id
            where st.topic_id = p.topic_id)`);
  // The filter columns kept beside the index (migration 0023).
  const staleFacts = await one(sql`
    select count(*) as n from search_rows r left join search_facts x on x.rowid = r.rowid
      left join posts p on p.id = r.post_id left join topics t on t.id = p.topic_id
    where x.rowid is null or x.post_id is not p.id or x.topic_id is not p.topic_id or x.community_id is not p.community_id
       or x.created_at is not p.created_at or x.position is not p.position or x.author is not lower(p.author_name)
       or x.category_id is not t.category_id
       or x.solution is not (case when t.solution_post_id = p.id then 2 when t.solution_post_id is not null then 1 else 0 end)`);
  return { posts, indexed, missing, stale: stale + staleFacts, orphans };
}
