// A community's MCP surface as declarative configuration: tool mode, extra
// instructions and community-defined prompts, one JSON document per community.
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function communityMcpMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('community_mcp_config')
        .addColumn('community_id', 'text', (c) => c.primaryKey())
        .addColumn('config', 'text', (c) => c.notNull())
        // Epoch milliseconds: instances poll for changes with a numeric comparison.
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('community_mcp_config_updated')
        .on('community_mcp_config')
        .column('updated_at')
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('community_mcp_config').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
