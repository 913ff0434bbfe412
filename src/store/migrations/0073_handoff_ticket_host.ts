// Hand-off tickets (one account, every community host) are web-session rows that name the one
// host they may be spent on: a ticket the apex minted for one community cannot open a session on
// another's host, and a row that names a host is never a session by itself.
import type { Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function handoffTicketHostMigration(_dialect: Dialect): Migration {
  return {
    async up(db: AnySchemaDb) {
      await db.schema.alterTable('web_sessions').addColumn('ticket_host', 'text').execute();
    },
    async down(db: AnySchemaDb) {
      await db.schema.alterTable('web_sessions').dropColumn('ticket_host').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('a nullable column');
