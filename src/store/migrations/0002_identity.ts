// People's credentials and sessions, memberships, agent scopes and keys, user keys, approval
// policies and the approval queue, idempotency records and the audit log.
// Secrets are never stored: passwords as scrypt hashes, keys and session tokens as SHA-256 hashes.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function identityMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      // Scopes as a comma-separated list ("topic:create,post:create"); trusted as 0/1 on both engines.
      await db.schema
        .alterTable('agents')
        .addColumn('scopes', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('agents')
        .addColumn('trusted', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('person_credentials')
        .addColumn('person_id', id, (c) =>
          c.primaryKey().references('people.id').onDelete('cascade'),
        )
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('web_sessions')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('revoked_at', ts)
        .execute();
      await db.schema
        .createIndex('web_sessions_by_person')
        .on('web_sessions')
        .columns(['person_id'])
        .execute();

      await db.schema
        .createTable('memberships')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) =>
          c.notNull().check(sql`role in ('owner', 'admin', 'moderator', 'member')`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['community_id', 'person_id'])
        .execute();
      await db.schema
        .createIndex('memberships_by_person')
        .on('memberships')
        .columns(['person_id'])
        .execute();

      await db.schema
        .createTable('agent_keys')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) => c.notNull())
        .addColumn('agent_id', id, (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts)
        .addColumn('revoked_at', ts)
        .addColumn('last_used_at', ts)
        .addForeignKeyConstraint(
          'agent_keys_agent',
          ['community_id', 'agent_id'],
          'agents',
          ['community_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('agent_keys_by_prefix')
        .on('agent_keys')
        .columns(['community_id', 'prefix'])
        .execute();

      await db.schema
        .createTable('user_keys')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts)
        .addColumn('revoked_at', ts)
        .addColumn('last_used_at', ts)
        .execute();
      await db.schema
        .createIndex('user_keys_by_person')
        .on('user_keys')
        .columns(['person_id'])
        .execute();

      await db.schema
        .createTable('approval_policies')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('auto', 'approval')`))
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('approval_policies_pk', ['community_id', 'kind'])
        .execute();

      await db.schema
        .createTable('approvals')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('submitter_kind', 'text', (c) => c.notNull())
        .addColumn('submitter_id', id)
        .addColumn('submitter_name', 'text', (c) => c.notNull())
        .addColumn('key_prefix', 'text')
        .addColumn('status', 'text', (c) =>
          c
            .notNull()
            .check(sql`status in ('pending', 'approved', 'rejected', 'applied', 'failed')`),
        )
        .addColumn('decided_by_kind', 'text')
        .addColumn('decided_by_id', id)
        .addColumn('decided_by_name', 'text')
        .addColumn('reason', 'text')
        .addColumn('result', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('decided_at', ts)
        .execute();
      await db.schema
        .createIndex('approvals_by_status')
        .on('approvals')
        .columns(['community_id', 'status', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('idempotency_records')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_records_pk', [
          'community_id',
          'actor',
          'idempotency_key',
        ])
        .execute();

      // community_id is null for actions outside any community (network tools).
      await db.schema
        .createTable('audit_log')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) => c.references('communities.id').onDelete('cascade'))
        .addColumn('occurred_at', ts, (c) => c.notNull())
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text')
        .addColumn('key_prefix', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('targets', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('outcome', 'text', (c) =>
          c.notNull().check(sql`outcome in ('ok', 'error', 'pending')`),
        )
        .addColumn('error_code', 'text')
        .addColumn('ip', 'text')
        .execute();
      await db.schema
        .createIndex('audit_log_by_community')
        .on('audit_log')
        .columns(['community_id', 'occurred_at', 'id'])
        .execute();
    },

    async down(db: AnySchemaDb) {
      for (const table of [
        'audit_log',
        'idempotency_records',
        'approvals',
        'approval_policies',
        'user_keys',
        'agent_keys',
        'memberships',
        'web_sessions',
        'person_credentials',
      ]) {
        await db.schema.dropTable(table).execute();
      }
      await db.schema.alterTable('agents').dropColumn('trusted').execute();
      await db.schema.alterTable('agents').dropColumn('scopes').execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic(
  "the first schema: new tables and agents' new columns with defaults",
);
