// MCP sessions in the database, so a session survives a restart and any instance can serve it.
// Times are epoch milliseconds (bigint): sessions are touched and swept by numeric comparison.
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function mcpSessionsMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('mcp_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('protocol_version', 'text', (c) => c.notNull())
        .addColumn('client_info', 'text')
        .addColumn('client_capabilities', 'text', (c) => c.notNull())
        .addColumn('log_level', 'text')
        .addColumn('subscriptions', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mcp_sessions_scope')
        .on('mcp_sessions')
        .column('scope')
        .execute();
      await db.schema
        .createIndex('mcp_sessions_last_seen')
        .on('mcp_sessions')
        .column('last_seen_at')
        .execute();
      await db.schema
        .createTable('mcp_streams')
        .addColumn('session_id', 'text', (c) =>
          c.notNull().references('mcp_sessions.id').onDelete('cascade'),
        )
        .addColumn('stream_id', 'text', (c) => c.notNull())
        .addColumn('next_seq', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('finished', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('mcp_streams_pk', ['session_id', 'stream_id'])
        .execute();
      await db.schema
        .createTable('mcp_events')
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('stream_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('mcp_events_pk', ['session_id', 'stream_id', 'seq'])
        .addForeignKeyConstraint(
          'mcp_events_stream',
          ['session_id', 'stream_id'],
          'mcp_streams',
          ['session_id', 'stream_id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.dropTable('mcp_events').execute();
      await db.schema.dropTable('mcp_streams').execute();
      await db.schema.dropTable('mcp_sessions').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a new table');
