// A category's own approval policy: null leaves new topics and articles in it to the community's
// policy per write kind; 'auto' or 'approval' decides for them (a quiet announcements category
// queues, an open support category publishes at once).
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function categoryApprovalMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema.alterTable('categories').addColumn('approval_policy', 'text').execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.alterTable('categories').dropColumn('approval_policy').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a nullable column');
