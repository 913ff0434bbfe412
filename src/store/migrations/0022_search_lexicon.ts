// What search learns from each community's own text (src/search/lexicon.ts), stored so that every
// instance shares one copy and a restart does not learn it again: one row per community (its
// words never leave that row: a search of one community reads only that community's row).
//
//   df        " term=n …": in how many topics each term occurs (terms in two topics or more)
//   related   " term=other:0.83,other2:0.5 …": each term's learned associations, strongest first
//             (empty when associations are not in use)
//   posts, topics   the community's size when it was learned (a new pass is due after growth)
//
// A community deleted takes its row with it.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function searchLexiconMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? 'uuid' : 'text';
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: AnySchemaDb) {
      await sql
        .raw(
          `create table search_lexicon (
        community_id ${id} primary key references communities (id) on delete cascade,
        posts integer not null,
        topics integer not null,
        built_at ${time} not null,
        df text not null,
        related text not null
      )`,
        )
        .execute(db);
    },
    async down(db: AnySchemaDb) {
      await sql.raw('drop table if exists search_lexicon').execute(db);
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
