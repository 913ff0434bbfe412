// MCP sessions, bounded: each records the credential (a hash) and the address that opened it, so
// sessions can be capped per owner and per address and used only by their owner; subscriptions get
// an index by resource, so an update reaches its subscribers without reading every session; and a
// secret every instance shares seals the request state of 2026-era multi round-trip requests.
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function mcpSessionsBoundedMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema.alterTable('mcp_sessions').addColumn('owner', 'text').execute();
      await db.schema.alterTable('mcp_sessions').addColumn('client_ip', 'text').execute();
      await db.schema
        .createIndex('mcp_sessions_owner')
        .on('mcp_sessions')
        .columns(['owner', 'last_seen_at'])
        .execute();
      await db.schema
        .createIndex('mcp_sessions_client_ip')
        .on('mcp_sessions')
        .columns(['client_ip', 'last_seen_at'])
        .execute();
      await db.schema
        .createTable('mcp_subscriptions')
        .addColumn('session_id', 'text', (c) =>
          c.notNull().references('mcp_sessions.id').onDelete('cascade'),
        )
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('uri', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('mcp_subscriptions_pk', ['session_id', 'uri'])
        .execute();
      await db.schema
        .createIndex('mcp_subscriptions_by_resource')
        .on('mcp_subscriptions')
        .columns(['scope', 'uri'])
        .execute();
      await db.schema
        .createTable('mcp_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('mcp_secrets').execute();
      await db.schema.dropTable('mcp_subscriptions').execute();
      await db.schema.dropIndex('mcp_sessions_client_ip').execute();
      await db.schema.dropIndex('mcp_sessions_owner').execute();
      await db.schema.alterTable('mcp_sessions').dropColumn('client_ip').execute();
      await db.schema.alterTable('mcp_sessions').dropColumn('owner').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic(
  'nullable columns and indexes on mcp_sessions (bounded: idle sessions expire), new tables',
);
