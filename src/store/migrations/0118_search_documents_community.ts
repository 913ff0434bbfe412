// PostgreSQL: an index on search_documents(community_id). A community search reads its scope's
// average document length from the scope's first documents (BM25's length normalization,
// src/search/postgres-ranked.ts); without this index that read scanned the whole search index until
// it had found them, so one small community's search cost grew with every other community's posts
// (10,000 communities × 10 topics: search_community p50 20 → 42 ms). SQLite keeps each community's
// documents apart already (search_communities): nothing to do there.
import { sql, type Migration } from 'kysely';
import type { AnySchemaDb } from '../any-schema.ts';
import type { Dialect } from '../repositories.ts';
import { needsMaintenance } from './traffic.ts';

export function searchDocumentsCommunityMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      if (dialect !== 'postgres') return;
      await sql`create index if not exists search_documents_community on search_documents (community_id)`.execute(
        db,
      );
    },
    async down(db: AnySchemaDb) {
      if (dialect !== 'postgres') return;
      await sql`drop index if exists search_documents_community`.execute(db);
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = needsMaintenance(
  'a plain index on the search index (PostgreSQL): its writes wait for the build',
);
