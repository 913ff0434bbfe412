// The OAuth repository over Kysely (both engines). Using a code or rotating a refresh token is a
// conditional UPDATE (… WHERE used_at IS NULL): of two concurrent uses exactly one wins, and the
// loser is told so (a replay).
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  OAuthClientsTable,
  OAuthCodesTable,
  OAuthGrantsTable,
  OAuthRefreshTokensTable,
} from '../oauth-schema.ts';
import type {
  ClientPolicyRecord,
  CodeRecord,
  GrantRecord,
  OAuthClientRecord,
  OAuthRepository,
  RefreshTokenRecord,
  SigningKeyRecord,
} from '../oauth.ts';
import { uniquely } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { toIso, toIsoOrNull } from '../time.ts';
import { changed } from './identity-rows.ts';

const list = (text: string): string[] => (text ? text.split(' ') : []);
const joined = (items: readonly string[]): string => items.join(' ');

function grantFromRow(row: Selectable<OAuthGrantsTable>): GrantRecord {
  return {
    id: row.id,
    communityId: row.community_id,
    personId: row.person_id,
    clientId: row.client_id,
    clientName: row.client_name,
    scopes: list(row.scopes),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    lastUsedAt: toIsoOrNull(row.last_used_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    revokedReason: row.revoked_reason,
  };
}

function clientFromRow(row: Selectable<OAuthClientsTable>): OAuthClientRecord {
  return {
    communityId: row.community_id,
    clientId: row.client_id,
    kind: row.kind,
    name: row.name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    createdAt: toIso(row.created_at),
  };
}

function codeFromRow(row: Selectable<OAuthCodesTable>): CodeRecord {
  return {
    codeHash: row.code_hash,
    grantId: row.grant_id,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    scopes: list(row.scopes),
    resource: row.resource,
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
    usedAt: toIsoOrNull(row.used_at),
  };
}

function refreshFromRow(row: Selectable<OAuthRefreshTokensTable>): RefreshTokenRecord {
  return {
    id: row.id,
    grantId: row.grant_id,
    tokenHash: row.token_hash,
    scopes: list(row.scopes),
    resource: row.resource,
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
    usedAt: toIsoOrNull(row.used_at),
    revokedAt: toIsoOrNull(row.revoked_at),
  };
}

export class KyselyOAuth implements OAuthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listSigningKeys(): Promise<SigningKeyRecord[]> {
    const rows = await this.db
      .selectFrom('oauth_signing_keys')
      .selectAll()
      .orderBy('created_at')
      .orderBy('kid')
      .execute();
    return rows.map((r) => ({
      kid: r.kid,
      alg: r.alg,
      privateJwk: r.private_jwk,
      publicJwk: r.public_jwk,
      createdAt: toIso(r.created_at),
    }));
  }

  async addSigningKey(key: SigningKeyRecord): Promise<void> {
    await uniquely('signing key', () =>
      this.db
        .insertInto('oauth_signing_keys')
        .values({
          kid: key.kid,
          alg: key.alg,
          private_jwk: key.privateJwk,
          public_jwk: key.publicJwk,
          created_at: key.createdAt,
        })
        .execute(),
    );
  }

  async deleteSigningKeys(kids: string[]): Promise<number> {
    if (kids.length === 0) return 0;
    const result = await this.db
      .deleteFrom('oauth_signing_keys')
      .where('kid', 'in', kids)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async getPolicy(communityId: string): Promise<ClientPolicyRecord | undefined> {
    if (!isUuid(communityId)) return undefined;
    const row = await this.db
      .selectFrom('oauth_client_policies')
      .selectAll()
      .where('community_id', '=', communityId)
      .executeTakeFirst();
    return (
      row && {
        communityId,
        mode: row.mode,
        allowedDomains: JSON.parse(row.allowed_domains) as string[],
        updatedAt: toIso(row.updated_at),
      }
    );
  }

  async putPolicy(p: ClientPolicyRecord): Promise<void> {
    const values = {
      mode: p.mode,
      allowed_domains: JSON.stringify(p.allowedDomains),
      updated_at: p.updatedAt,
    };
    await this.db
      .insertInto('oauth_client_policies')
      .values({ community_id: p.communityId, ...values })
      .onConflict((oc) => oc.column('community_id').doUpdateSet(values))
      .execute();
  }

  async getClient(communityId: string, clientId: string): Promise<OAuthClientRecord | undefined> {
    if (!isUuid(communityId)) return undefined;
    const row = await this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('community_id', '=', communityId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row && clientFromRow(row);
  }

  async listClients(communityId: string): Promise<OAuthClientRecord[]> {
    if (!isUuid(communityId)) return [];
    const rows = await this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('community_id', '=', communityId)
      .orderBy('created_at')
      .execute();
    return rows.map(clientFromRow);
  }

  async addClient(c: OAuthClientRecord): Promise<void> {
    await uniquely('OAuth client', () =>
      this.db
        .insertInto('oauth_clients')
        .values({
          community_id: c.communityId,
          client_id: c.clientId,
          kind: c.kind,
          name: c.name,
          redirect_uris: JSON.stringify(c.redirectUris),
          created_at: c.createdAt,
        })
        .execute(),
    );
  }

  async removeClient(communityId: string, clientId: string): Promise<boolean> {
    if (!isUuid(communityId)) return false;
    const r = await this.db
      .deleteFrom('oauth_clients')
      .where('community_id', '=', communityId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return changed(r) > 0;
  }

  async getGrant(id: string): Promise<GrantRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('oauth_grants')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && grantFromRow(row);
  }

  async findLiveGrant(
    communityId: string,
    personId: string,
    clientId: string,
  ): Promise<GrantRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_grants')
      .selectAll()
      .where('community_id', '=', communityId)
      .where('person_id', '=', personId)
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && grantFromRow(row);
  }

  async createGrant(
    g: Omit<GrantRecord, 'lastUsedAt' | 'revokedAt' | 'revokedReason'>,
  ): Promise<GrantRecord> {
    const row = {
      id: g.id,
      community_id: g.communityId,
      person_id: g.personId,
      client_id: g.clientId,
      client_name: g.clientName,
      scopes: joined(g.scopes),
      created_at: g.createdAt,
      updated_at: g.updatedAt,
      last_used_at: null,
      revoked_at: null,
      revoked_reason: null,
    };
    await uniquely('OAuth grant', () => this.db.insertInto('oauth_grants').values(row).execute());
    return grantFromRow(row);
  }

  async updateGrant(
    id: string,
    patch: { scopes: string[]; clientName: string; updatedAt: string },
  ): Promise<void> {
    await this.db
      .updateTable('oauth_grants')
      .set({
        scopes: joined(patch.scopes),
        client_name: patch.clientName,
        updated_at: patch.updatedAt,
      })
      .where('id', '=', id)
      .execute();
  }

  async touchGrant(id: string, at: string, notBefore: string): Promise<void> {
    await this.db
      .updateTable('oauth_grants')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notBefore)]))
      .execute();
  }

  async revokeGrant(id: string, at: string, reason: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const r = await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: at, revoked_reason: reason })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return changed(r) > 0;
  }

  async listLiveGrants(communityId: string, personId?: string): Promise<GrantRecord[]> {
    if (!isUuid(communityId) || (personId !== undefined && !isUuid(personId))) return [];
    let q = this.db
      .selectFrom('oauth_grants')
      .selectAll()
      .where('community_id', '=', communityId)
      .where('revoked_at', 'is', null);
    if (personId) q = q.where('person_id', '=', personId);
    const rows = await q.orderBy('updated_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(grantFromRow);
  }

  async addCode(c: Omit<CodeRecord, 'usedAt'>): Promise<void> {
    await this.db
      .insertInto('oauth_codes')
      .values({
        code_hash: c.codeHash,
        grant_id: c.grantId,
        client_id: c.clientId,
        redirect_uri: c.redirectUri,
        code_challenge: c.codeChallenge,
        scopes: joined(c.scopes),
        resource: c.resource,
        created_at: c.createdAt,
        expires_at: c.expiresAt,
        used_at: null,
      })
      .execute();
  }

  async findCode(codeHash: string): Promise<CodeRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_codes')
      .selectAll()
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    return row && codeFromRow(row);
  }

  async useCode(codeHash: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('oauth_codes')
      .set({ used_at: at })
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return changed(r) === 1;
  }

  async addRefreshToken(t: Omit<RefreshTokenRecord, 'usedAt' | 'revokedAt'>): Promise<void> {
    await this.db
      .insertInto('oauth_refresh_tokens')
      .values({
        id: t.id,
        grant_id: t.grantId,
        token_hash: t.tokenHash,
        scopes: joined(t.scopes),
        resource: t.resource,
        created_at: t.createdAt,
        expires_at: t.expiresAt,
        used_at: null,
        revoked_at: null,
      })
      .execute();
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_refresh_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row && refreshFromRow(row);
  }

  async useRefreshToken(id: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('oauth_refresh_tokens')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return changed(r) === 1;
  }

  async revokeRefreshTokensOf(grantId: string, at: string): Promise<number> {
    const r = await this.db
      .updateTable('oauth_refresh_tokens')
      .set({ revoked_at: at })
      .where('grant_id', '=', grantId)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return changed(r);
  }
}
