// Outbound e-mail and the account tokens it carries. `mail_outbox`: every mail, written in the
// transaction of the change that caused it, claimed by one dispatcher at a time under a lease (its
// id is the Message-ID's local part, so a resend after a crash keeps the id). `account_tokens`:
// single-use links (address verification, password reset, e-mail change), only their hash kept.
// `email_verifications`: the address a person proved they read (verified while it is still theirs).
// `mail_unsubscribes`: the kinds of mail a person turned off (one-click, RFC 8058).
// `community_account_rules`: whether a community lets unverified accounts post.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function mailMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('message_id', 'text', (c) => c.notNull().unique())
        .addColumn('community_id', id, (c) => c.references('communities.id').onDelete('cascade'))
        .addColumn('person_id', id)
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text')
        // Extra headers as a JSON object (threading, List-Unsubscribe, Auto-Submitted).
        .addColumn('headers', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('pending', 'sent', 'failed')`),
        )
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // Epoch milliseconds: due and lease comparisons are numeric on both engines.
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('lease_token', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('sent_at', ts)
        .execute();
      await db.schema
        .createIndex('mail_outbox_due')
        .on('mail_outbox')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('mail_outbox_recent')
        .on('mail_outbox')
        .columns(['created_at', 'id'])
        .execute();

      await db.schema
        .createTable('account_tokens')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        // The address the link was sent to (for an e-mail change: the new address).
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('account_tokens_by_person')
        .on('account_tokens')
        .columns(['person_id', 'purpose'])
        .execute();

      await db.schema
        .createTable('email_verifications')
        .addColumn('person_id', id, (c) =>
          c.primaryKey().references('people.id').onDelete('cascade'),
        )
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('verified_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('mail_unsubscribes')
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_unsubscribes_pk', ['person_id', 'kind'])
        .execute();

      await db.schema
        .createTable('community_account_rules')
        .addColumn('community_id', id, (c) =>
          c.primaryKey().references('communities.id').onDelete('cascade'),
        )
        .addColumn('unverified_may_post', 'integer', (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: AnySchemaDb) {
      for (const t of [
        'community_account_rules',
        'mail_unsubscribes',
        'email_verifications',
        'account_tokens',
        'mail_outbox',
      ])
        await db.schema.dropTable(t).ifExists().execute();
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('new tables');
