// The conditions a search's filters put on each match (category, tags, solved_only, source_types,
// author, since, until, environment), written once for both engines. Each engine keeps the
// columns the filters test beside its index (migration 0023) and names that row with an alias (an
// environment is looked up in post_environments by the post's id); only how a timestamp
// parameter is written differs (PostgreSQL compares timestamptz, SQLite ISO text). A category is
// named by slug: in some communities, one of their few categories; across the network, each
// match's own category is looked up (a list of every community's categories would grow with it).
import { sql, type RawBuilder } from 'kysely';
import type { IndexFilters, SearchScope } from './index.ts';

export function filterConditions(
  f: IndexFilters,
  scope: SearchScope,
  alias: string,
  timestamp: (iso: string) => RawBuilder<unknown>,
): RawBuilder<unknown>[] {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  /** The match's category is one of the scope's where `test` holds. */
  const inCategories = (test: RawBuilder<unknown>) =>
    scope.kind === 'public'
      ? sql`exists (select 1 from categories k where k.id = ${col('category_id')} and ${test})`
      : sql`${col('category_id')} in (select k.id from categories k where k.community_id in (${sql.join(scope.ids)}) and ${test})`;
  const where: RawBuilder<unknown>[] = [];
  if (f.categorySlug) where.push(inCategories(sql`k.slug = ${f.categorySlug}`));
  if (f.solvedOnly) where.push(sql`${col('solution')} > 0`);
  // The author by name or by the start of any word of it ("justin" finds "Justin Mason"); the
  // column holds the name as the engine's lower() wrote it, so the words are folded the same way.
  if (f.author) {
    const start = f.author.replace(/[\\%_]/g, (ch) => `\\${ch}`);
    where.push(sql`(' ' || ${col('author')}) like ('% ' || lower(${start}) || '%') escape ${'\\'}`);
  }
  if (f.since) where.push(sql`${col('created_at')} >= ${timestamp(f.since)}`);
  if (f.until) where.push(sql`${col('created_at')} < ${timestamp(f.until)}`);
  for (const tag of f.tags ?? []) {
    where.push(
      sql`exists (select 1 from topic_tags g where g.community_id = ${col('community_id')} and g.topic_id = ${col('topic_id')} and g.tag = ${tag})`,
    );
  }
  // The environment: one source (the post's own, or one "worked" report on it) that ran every
  // named name with a version starting so.
  const named = Object.entries(f.environment ?? {});
  if (named.length) {
    const pairs = named.map(
      ([name, version]) =>
        sql`(e.name = ${name} and e.version like ${`${version.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`} escape ${'\\'})`,
    );
    where.push(
      sql`exists (select 1 from post_environments e where e.community_id = ${col('community_id')} and e.post_id = ${col('post_id')} and (e.worked is null or e.worked = 1) and (${sql.join(pairs, sql` or `)}) group by e.reporter having count(*) = ${named.length})`,
    );
  }
  // All three source types (or none named) is no filter at all.
  if (f.sourceTypes && f.sourceTypes.length < 3) {
    const article = inCategories(sql`k.kind = 'knowledge_base'`);
    const kinds = f.sourceTypes.map((s) =>
      s === 'post'
        ? sql`${col('position')} > 1`
        : s === 'topic'
          ? sql`(${col('position')} = 1 and not (${article}))`
          : sql`(${col('position')} = 1 and ${article})`,
    );
    where.push(sql`(${sql.join(kinds, sql` or `)})`);
  }
  return where;
}
