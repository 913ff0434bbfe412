// Posts and article revisions keep their rendered HTML beside the Markdown source: rendered once
// when written instead of on every read. `html_version` names the renderer that made `html`
// (src/domain/rendering.ts); 0 (every row written before this migration) means not rendered yet,
// and a row whose version is older than the renderer's is rendered again when it is next read.
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

const TABLES = ['posts', 'article_revisions'] as const;

export function renderedHtmlMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      for (const table of TABLES) {
        await db.schema.alterTable(table).addColumn('html', 'text').execute();
        await db.schema
          .alterTable(table)
          .addColumn('html_version', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      }
    },
    async down(db: AnySchemaDb) {
      for (const table of TABLES) {
        await db.schema.alterTable(table).dropColumn('html_version').execute();
        await db.schema.alterTable(table).dropColumn('html').execute();
      }
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic(
  'a nullable column and a column with a constant default (no rewrite)',
);
