// What agents learn and leave beside the posts: where a post was written or an answer was tried
// (environments), which posts a write or a report used (sources), who owns each agent (reports of
// one owner's agents count as one), and each answer's confidence kept on its signals row.
//
//   post_environments  one row per name → version pair: the post's own (reporter '', worked null)
//                      or an outcome report's (reporter 'agent:<id>' / 'person:<id>', worked 0/1);
//                      a search's filters.environment tests it by name and version prefix
//   post_sources       one row per cited post and citing write (a post, or an outcome report),
//                      with who cited it (its owner's key: one owner's agents are one citer)
//   agent_owners       the person who created an agent (agents the system created own themselves)
//   post_outcomes      + environment (JSON), weight (how much the report counts: less for a
//                      sandboxed reporter, nothing for the author's own owner), trusted (0/1), owner
//   post_signals       + the post's own environment (JSON), the confidence its reports add up to
//                      (weighted worked and failed, disputed, the environments it worked in, when a
//                      moderator last cleared a dispute) and cited_by
import { sql, type ColumnDefinitionBuilder, type Migration } from 'kysely';
import type { AnySchemaDb } from '../any-schema.ts';
import type { Dialect } from '../repositories.ts';
import { needsMaintenance } from './traffic.ts';

export function agentKnowledgeMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const real = dialect === 'postgres' ? sql`double precision` : sql`real`;
  return {
    async up(db: AnySchemaDb) {
      const community = (c: ColumnDefinitionBuilder) =>
        c.notNull().references('communities.id').onDelete('cascade');
      const post = (c: ColumnDefinitionBuilder) =>
        c.notNull().references('posts.id').onDelete('cascade');
      await db.schema
        .createTable('post_environments')
        .addColumn('community_id', id, community)
        .addColumn('post_id', id, post)
        .addColumn('topic_id', id, (c) => c.notNull())
        .addColumn('reporter', 'text', (c) => c.notNull())
        .addColumn('worked', 'integer')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('post_environments_pk', ['post_id', 'reporter', 'name'])
        .execute();
      await db.schema
        .createIndex('post_environments_by_name')
        .on('post_environments')
        .columns(['community_id', 'name', 'version'])
        .execute();
      await db.schema
        .createTable('post_sources')
        .addColumn('community_id', id, community)
        .addColumn('post_id', id, post)
        .addColumn('citing', 'text', (c) => c.notNull())
        .addColumn('citer', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('post_sources_pk', ['post_id', 'citing'])
        .execute();
      await db.schema
        .createTable('agent_owners')
        .addColumn('agent_id', id, (c) =>
          c.primaryKey().references('agents.id').onDelete('cascade'),
        )
        .addColumn('community_id', id, community)
        .addColumn('owner', 'text', (c) => c.notNull())
        .execute();
      for (const [column, type, fill] of [
        ['environment', sql`text`, null],
        ['weight', real, sql`not null default 1`],
        ['trusted', sql`integer`, sql`not null default 1`],
        ['owner', sql`text`, null],
      ] as const)
        await sql`alter table post_outcomes add column ${sql.raw(column)} ${type} ${fill ?? sql``}`.execute(
          db,
        );
      for (const [column, type, fill] of [
        ['environment', sql`text`, null],
        ['worked_weight', real, sql`not null default 0`],
        ['failed_weight', real, sql`not null default 0`],
        ['disputed', sql`integer`, sql`not null default 0`],
        ['dispute_cleared_at', ts, null],
        ['worked_in', sql`text`, null],
        ['cited_by', sql`integer`, sql`not null default 0`],
      ] as const)
        await sql`alter table post_signals add column ${sql.raw(column)} ${type} ${fill ?? sql``}`.execute(
          db,
        );
      // Reports made before weights existed count whole, each reporter its own owner.
      await sql`update post_outcomes set owner = actor_kind || ':' || actor_id`.execute(db);
      await sql`update post_signals set
          worked_weight = worked_agents + worked_people, failed_weight = failed_count`.execute(db);
    },
    async down(db: AnySchemaDb) {
      for (const t of ['agent_owners', 'post_sources', 'post_environments'])
        await db.schema.dropTable(t).ifExists().execute();
      for (const c of ['environment', 'weight', 'trusted', 'owner'])
        await db.schema.alterTable('post_outcomes').dropColumn(c).execute();
      for (const c of [
        'environment',
        'worked_weight',
        'failed_weight',
        'disputed',
        'dispute_cleared_at',
        'worked_in',
        'cited_by',
      ])
        await db.schema.alterTable('post_signals').dropColumn(c).execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'new tables and columns with defaults, but rewrites every post outcome and signal row',
);
