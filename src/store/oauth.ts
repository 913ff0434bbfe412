// OAuth records (signing keys, client trust policies and registered clients, grants, authorization
// codes, refresh tokens) and the repository contract over them. Codes and tokens reach the store
// as SHA-256 hashes only (src/domain/oauth/ makes and checks them).

export type SigningKeyRecord = {
  kid: string;
  alg: string;
  privateJwk: string;
  publicJwk: string;
  createdAt: string;
};

export type ClientPolicyRecord = {
  communityId: string;
  mode: string;
  allowedDomains: string[];
  updatedAt: string;
};

export type OAuthClientRecord = {
  communityId: string;
  clientId: string;
  /** 'registered' by an administrator, or 'dynamic' (RFC 7591 registration). */
  kind: string;
  name: string;
  redirectUris: string[];
  createdAt: string;
};

export type GrantRecord = {
  id: string;
  communityId: string;
  personId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedReason: string | null;
};

export type CodeRecord = {
  codeHash: string;
  grantId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  resource: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
};

export type RefreshTokenRecord = {
  id: string;
  grantId: string;
  tokenHash: string;
  scopes: string[];
  resource: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  revokedAt: string | null;
};

export interface OAuthRepository {
  /** Oldest first. */
  listSigningKeys(): Promise<SigningKeyRecord[]>;
  addSigningKey(key: SigningKeyRecord): Promise<void>;
  /** Forgets these signing keys (tokens they signed stop verifying); returns how many there were. */
  deleteSigningKeys(kids: string[]): Promise<number>;

  getPolicy(communityId: string): Promise<ClientPolicyRecord | undefined>;
  putPolicy(policy: ClientPolicyRecord): Promise<void>;

  getClient(communityId: string, clientId: string): Promise<OAuthClientRecord | undefined>;
  listClients(communityId: string): Promise<OAuthClientRecord[]>;
  /** Throws UniqueViolation when the community already has this client id. */
  addClient(client: OAuthClientRecord): Promise<void>;
  removeClient(communityId: string, clientId: string): Promise<boolean>;

  getGrant(id: string): Promise<GrantRecord | undefined>;
  findLiveGrant(
    communityId: string,
    personId: string,
    clientId: string,
  ): Promise<GrantRecord | undefined>;
  /** Throws UniqueViolation when a live grant of this person to this client exists already. */
  createGrant(
    grant: Omit<GrantRecord, 'lastUsedAt' | 'revokedAt' | 'revokedReason'>,
  ): Promise<GrantRecord>;
  updateGrant(
    id: string,
    patch: { scopes: string[]; clientName: string; updatedAt: string },
  ): Promise<void>;
  /** Sets last_used_at unless it was set after `notBefore` (keeps the hot path mostly read-only). */
  touchGrant(id: string, at: string, notBefore: string): Promise<void>;
  /** False when the grant was already revoked (or does not exist). */
  revokeGrant(id: string, at: string, reason: string): Promise<boolean>;
  /** Live grants, newest first; of one person when `personId` is given. */
  listLiveGrants(communityId: string, personId?: string): Promise<GrantRecord[]>;

  addCode(code: Omit<CodeRecord, 'usedAt'>): Promise<void>;
  findCode(codeHash: string): Promise<CodeRecord | undefined>;
  /** Marks the code used; true only for the one call that used it first. */
  useCode(codeHash: string, at: string): Promise<boolean>;

  addRefreshToken(token: Omit<RefreshTokenRecord, 'usedAt' | 'revokedAt'>): Promise<void>;
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /** Marks the token rotated; true only for the one call that rotated it first. */
  useRefreshToken(id: string, at: string): Promise<boolean>;
  /** Revokes the grant's refresh tokens that are neither used nor revoked yet. */
  revokeRefreshTokensOf(grantId: string, at: string): Promise<number>;
}
