// What a person wrote through a connected app is labelled with that app ("via Claude"): the app's
// name beside the author of topics, posts, article revisions, and queued writes.
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

const TABLES = [
  ['topics', 'author_via'],
  ['posts', 'author_via'],
  ['article_revisions', 'author_via'],
  ['approvals', 'submitter_via'],
] as const;

export function authorViaMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      for (const [table, column] of TABLES)
        await db.schema.alterTable(table).addColumn(column, 'text').execute();
    },
    async down(db: AnySchemaDb) {
      for (const [table, column] of TABLES)
        await db.schema.alterTable(table).dropColumn(column).execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('nullable columns');
