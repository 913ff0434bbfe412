// Identity and access records (people's credentials, sessions, memberships, agent scopes and keys,
// user keys, approval policies and queue, idempotency records, audit log) and the repository
// contracts over them. Secrets never reach the store: only hashes (see src/domain/identity/).
import type { AuthorRef, Keyset, Page } from './types.ts';
import type { Sanction } from './moderation.ts';

// Roles, scopes, write kinds, policy modes and approval statuses are the domain's vocabulary
// (src/domain/vocabulary.ts): here they are plain strings, stored as given.

/** A web session, or a hand-off ticket when `ticketHost` names the one host it may be spent on. */
export type WebSessionRecord = {
  id: string;
  personId: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  ticketHost: string | null;
};

export type Membership = { communityId: string; personId: string; role: string; createdAt: string };

/**
 * A person of a community: a role holder (joined when the membership was made), or someone who
 * posted there without a role (role null, joined with their first post).
 */
export type CommunityPerson = {
  personId: string;
  displayName: string;
  email: string | null;
  /** What an @mention of them writes; their profile's address (/u/<handle>). */
  handle: string | null;
  role: string | null;
  joinedAt: string;
};

export type AgentGrant = { agentId: string; scopes: string[]; trusted: boolean };

/** Common fields of agent keys and user keys; the key itself is never stored, only its hash. */
export type KeyRecord = {
  id: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
};
export type AgentKeyRecord = KeyRecord & { communityId: string; agentId: string };
export type UserKeyRecord = KeyRecord & { personId: string };

export type ApprovalRecord = {
  id: string;
  communityId: string;
  kind: string;
  /** The full write as submitted (JSON). */
  payload: unknown;
  submitter: AuthorRef;
  keyPrefix: string | null;
  status: string;
  decidedBy: AuthorRef | null;
  reason: string | null;
  /** What the applied write returned (JSON), or null. */
  result: unknown;
  createdAt: string;
  decidedAt: string | null;
};

export type NewApproval = {
  kind: string;
  payload: unknown;
  submitter: AuthorRef;
  keyPrefix: string | null;
  createdAt?: string;
};

export type IdempotencyRecord = { requestHash: string; result: unknown; createdAt: string };

export type AuditOutcome = 'ok' | 'error' | 'pending';
export type AuditEntry = {
  id: string;
  communityId: string | null;
  occurredAt: string;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  keyPrefix: string | null;
  action: string;
  targets: Record<string, string>;
  outcome: AuditOutcome;
  errorCode: string | null;
  ip: string | null;
};
export type NewAuditEntry = Omit<AuditEntry, 'id' | 'occurredAt'> & { occurredAt?: string };

/** Not community-scoped: people's credentials, sessions and user keys; agent keys by hash. */
export interface CredentialRepository {
  setPasswordHash(personId: string, hash: string): Promise<void>;
  getPasswordHash(personId: string): Promise<string | undefined>;

  createSession(input: {
    personId: string;
    tokenHash: string;
    createdAt?: string;
    expiresAt: string;
    ticketHost?: string;
  }): Promise<WebSessionRecord>;
  findSessionByHash(tokenHash: string): Promise<WebSessionRecord | undefined>;
  /** Marks the session revoked; false when no live session has this hash. */
  revokeSession(tokenHash: string, at?: string): Promise<boolean>;
  revokeSessionsOf(personId: string, at?: string): Promise<number>;

  membershipsOf(personId: string): Promise<Membership[]>;

  createUserKey(input: {
    personId: string;
    prefix: string;
    keyHash: string;
    expiresAt: string | null;
  }): Promise<UserKeyRecord>;
  findUserKeyByHash(keyHash: string): Promise<(UserKeyRecord & { keyHash: string }) | undefined>;
  listUserKeys(personId: string): Promise<UserKeyRecord[]>;
  /** Revokes the person's live keys whose id or prefix is `ref`; returns how many. */
  revokeUserKey(personId: string, ref: string, at?: string): Promise<number>;
  /** Sets last_used_at = at unless it was set at or after `notBefore` (keeps the hot path cheap). */
  touchUserKey(id: string, at: string, notBefore: string): Promise<void>;

  /**
   * Any community's agent key by hash (lets authentication say "this key belongs elsewhere"), with
   * its agent's name and grant, and the sanction on its agent (whether in force or ended), read in
   * the same statement (agent undefined when the agent is gone).
   */
  findAgentKeyByHash(keyHash: string): Promise<
    | (AgentKeyRecord & {
        keyHash: string;
        agent: { name: string; scopes: string[]; trusted: boolean } | undefined;
        sanction: Sanction | undefined;
      })
    | undefined
  >;
  touchAgentKey(id: string, at: string, notBefore: string): Promise<void>;
}

export interface AuditRepository {
  record(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Newest first; community null lists entries outside any community. */
  list(
    communityId: string | null,
    page: { after?: Keyset; limit: number },
  ): Promise<Page<AuditEntry, Keyset>>;
}

export interface IdentityRepositories {
  readonly credentials: CredentialRepository;
  readonly audit: AuditRepository;
}

export interface MembershipRepository {
  /** Adds or changes the person's role in this community. */
  set(personId: string, role: string): Promise<Membership>;
  get(personId: string): Promise<Membership | undefined>;
  list(): Promise<Membership[]>;
  /**
   * Everyone of the community, role or not (CommunityPerson), newest joined first, ties by person
   * id descending; `after` is the keyset (joinedAt, personId) of the last one seen; `query`, when
   * given, keeps those whose name, e-mail address or handle contains it (any case).
   */
  people(page: {
    after?: Keyset;
    limit: number;
    query?: string;
  }): Promise<Page<CommunityPerson, Keyset>>;
  remove(personId: string): Promise<boolean>;
  /**
   * Up to `limit` members whose handle or display name starts with `prefix` (any case; handles
   * first, then by handle): what the composer suggests after an "@".
   */
  withHandlePrefix(
    prefix: string,
    limit: number,
  ): Promise<{ personId: string; handle: string; displayName: string }[]>;
  /**
   * The members holding one of `roles`, ordered by person id, their rows locked until the
   * surrounding transaction ends: on PostgreSQL (SELECT … FOR UPDATE) a concurrent call waits for
   * this transaction and then reads what it committed; SQLite's transactions hold the write lock.
   * Outside a transaction the lock ends with the statement.
   */
  lockHolders(roles: readonly string[]): Promise<Membership[]>;
}

export interface AgentAccessRepository {
  getGrant(agentId: string): Promise<AgentGrant | undefined>;
  setGrant(agentId: string, grant: { scopes: string[]; trusted: boolean }): Promise<boolean>;
  createKey(input: {
    agentId: string;
    prefix: string;
    keyHash: string;
    expiresAt: string | null;
  }): Promise<AgentKeyRecord>;
  /** Keys of one agent, or of every agent of the community; newest first. */
  listKeys(agentId?: string): Promise<AgentKeyRecord[]>;
  /** Keys whose id or prefix is `ref`. */
  findKeys(ref: string): Promise<AgentKeyRecord[]>;
  revokeKey(id: string, at?: string): Promise<boolean>;
}

export interface ApprovalPolicyRepository {
  get(kind: string): Promise<string | undefined>;
  set(kind: string, mode: string): Promise<void>;
  list(): Promise<{ kind: string; mode: string }[]>;
}

export interface ApprovalRepository {
  create(input: NewApproval): Promise<ApprovalRecord>;
  getById(id: string): Promise<ApprovalRecord | undefined>;
  /** Oldest first (a queue); optional status filter. */
  list(query: {
    status?: string;
    submitterId?: string;
    after?: Keyset;
    limit: number;
  }): Promise<Page<ApprovalRecord, Keyset>>;
  /**
   * pending → `to` with the decider, atomically: true for exactly one of concurrent callers
   * (conditional UPDATE … WHERE status = 'pending', affected rows checked).
   */
  decide(
    id: string,
    to: 'approved' | 'rejected' | 'failed',
    decidedBy: AuthorRef,
    reason: string | null,
    at?: string,
  ): Promise<boolean>;
  /** approved → applied|failed with the result or the reason. */
  complete(
    id: string,
    to: 'applied' | 'failed',
    result: unknown,
    reason: string | null,
  ): Promise<boolean>;
}

export interface IdempotencyRepository {
  find(actor: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Throws UniqueViolation when the (actor, key) pair is already recorded. */
  insert(input: {
    actor: string;
    key: string;
    requestHash: string;
    result: unknown;
  }): Promise<void>;
  /** Replaces the stored result (a record inserted first as a claim, completed in the same transaction). */
  setResult(actor: string, key: string, result: unknown): Promise<void>;
}

export interface CommunityAccessRepositories {
  readonly members: MembershipRepository;
  readonly agents: AgentAccessRepository;
  readonly policies: ApprovalPolicyRepository;
  readonly approvals: ApprovalRepository;
  readonly idempotency: IdempotencyRepository;
}
