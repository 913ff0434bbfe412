// Kysely table types of migration 0060_oauth (see ./schema.ts for the conventions).
type Timestamp = string | Date;

export interface OAuthSigningKeysTable {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  created_at: Timestamp;
}

export interface OAuthClientPoliciesTable {
  community_id: string;
  mode: string;
  allowed_domains: string;
  updated_at: Timestamp;
}

export interface OAuthClientsTable {
  community_id: string;
  client_id: string;
  kind: string;
  name: string;
  redirect_uris: string;
  created_at: Timestamp;
}

export interface OAuthGrantsTable {
  id: string;
  community_id: string;
  person_id: string;
  client_id: string;
  client_name: string;
  scopes: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
}

export interface OAuthCodesTable {
  code_hash: string;
  grant_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  resource: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface OAuthRefreshTokensTable {
  id: string;
  grant_id: string;
  token_hash: string;
  scopes: string;
  resource: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface OAuthTables {
  oauth_signing_keys: OAuthSigningKeysTable;
  oauth_client_policies: OAuthClientPoliciesTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
}
