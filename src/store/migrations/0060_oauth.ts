// OAuth 2.1 for MCP hosts: the signing keys of access tokens (kept here so that tokens survive a
// restart and verify on every instance), each community's client trust policy and the clients it
// knows (pre-registered by an administrator, or registered dynamically), people's grants to clients,
// authorization codes and refresh tokens. Codes and tokens are stored as SHA-256 hashes only.
import { sql, type Migration } from 'kysely';
import type { Dialect } from '../repositories.ts';
import type { AnySchemaDb } from '../any-schema.ts';
import { safeUnderTraffic } from './traffic.ts';

export function oauthMigration(dialect: Dialect): Migration {
  const id = dialect === 'postgres' ? sql`uuid` : sql`text`;
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnySchemaDb) {
      await db.schema
        .createTable('oauth_signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('alg', 'text', (c) => c.notNull())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();

      // mode: 'any' (any client with a metadata document, or registered dynamically), 'domains'
      // (metadata documents hosted on allowed_domains, plus pre-registered clients), 'registered'.
      await db.schema
        .createTable('oauth_client_policies')
        .addColumn('community_id', id, (c) =>
          c.primaryKey().references('communities.id').onDelete('cascade'),
        )
        .addColumn('mode', 'text', (c) =>
          c.notNull().check(sql`mode in ('any', 'domains', 'registered')`),
        )
        .addColumn('allowed_domains', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();

      // kind: 'registered' (an administrator registered it, or approved its metadata URL) or 'dynamic'.
      await db.schema
        .createTable('oauth_clients')
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('registered', 'dynamic')`))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('oauth_clients_pk', ['community_id', 'client_id'])
        .execute();

      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('community_id', id, (c) =>
          c.notNull().references('communities.id').onDelete('cascade'),
        )
        .addColumn('person_id', id, (c) => c.notNull().references('people.id').onDelete('cascade'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_name', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('last_used_at', ts)
        .addColumn('revoked_at', ts)
        .addColumn('revoked_reason', 'text')
        .execute();
      // One live grant per person, client and community: connecting again updates it.
      await db.schema
        .createIndex('oauth_grants_live')
        .on('oauth_grants')
        .columns(['community_id', 'person_id', 'client_id'])
        .unique()
        .where(sql.ref('revoked_at'), 'is', null)
        .execute();
      await db.schema
        .createIndex('oauth_grants_by_person')
        .on('oauth_grants')
        .columns(['person_id'])
        .execute();

      await db.schema
        .createTable('oauth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', id, (c) =>
          c.notNull().references('oauth_grants.id').onDelete('cascade'),
        )
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .execute();
      await db.schema
        .createIndex('oauth_codes_by_grant')
        .on('oauth_codes')
        .columns(['grant_id'])
        .execute();

      await db.schema
        .createTable('oauth_refresh_tokens')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('grant_id', id, (c) =>
          c.notNull().references('oauth_grants.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .addColumn('revoked_at', ts)
        .execute();
      await db.schema
        .createIndex('oauth_refresh_by_grant')
        .on('oauth_refresh_tokens')
        .columns(['grant_id'])
        .execute();
    },
    async down(db: AnySchemaDb) {
      for (const table of [
        'oauth_refresh_tokens',
        'oauth_codes',
        'oauth_grants',
        'oauth_clients',
        'oauth_client_policies',
        'oauth_signing_keys',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

/** Whether it may run while the previous release serves (the rule is in ./traffic.ts). */
export const traffic = safeUnderTraffic('new tables');
