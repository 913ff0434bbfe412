// Each author's reputation per community, kept beside the posts: what the verified outcomes of
// their answers add up to (the domain's rule, ../../domain/knowledge/reputation.ts), recounted in
// the transaction of every outcome report on one of their answers and of every dispute a
// moderator clears. Read with the author wherever posts are shown, and by trust and ranking.
//
//   author_reputation  one row per (community, author kind, author id): reputation, the weighed
//                      "it worked" and "it failed" of their answers, how many are disputed
import { sql, type Migration } from 'kysely';
import type { AnySchemaDb } from '../any-schema.ts';
import type { Dialect } from '../repositories.ts';
import { safeUnderTraffic } from './traffic.ts';

export function authorReputationMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const real = dialect === 'postgres' ? sql`double precision` : sql`real`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('author_reputation')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('author_kind', 'text', (c) => c.notNull())
        .addColumn('author_id', id, (c) => c.notNull())
        .addColumn('reputation', real, (c) => c.notNull().defaultTo(0))
        .addColumn('worked_weight', real, (c) => c.notNull().defaultTo(0))
        .addColumn('failed_weight', real, (c) => c.notNull().defaultTo(0))
        .addColumn('disputed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('author_reputation_pk', [
          'community_id',
          'author_kind',
          'author_id',
        ])
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('author_reputation').ifExists().execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
