// Kysely table types of migration 0002_identity (see ./schema.ts for the conventions).
import type { SanctionsTable } from './moderation-schema.ts';
import type { ColumnType } from 'kysely';
type Timestamp = string | Date;

export interface PersonCredentialsTable {
  person_id: string;
  password_hash: string;
  updated_at: Timestamp;
}

export interface WebSessionsTable {
  id: string;
  person_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Set on a hand-off ticket: the one host it may be spent on. */
  ticket_host: string | null;
}

export interface MembershipsTable {
  community_id: string;
  person_id: string;
  role: string;
  created_at: Timestamp;
}

/** The columns of `agents` identity reads (its name, and the scopes and trust 0002 added). */
export interface AgentGrantColumns {
  id: string;
  community_id: string;
  name: string;
  scopes: string;
  trusted: number;
}

export interface AgentKeysTable {
  id: string;
  community_id: string;
  agent_id: string;
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
}

export interface UserKeysTable {
  id: string;
  person_id: string;
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
}

export interface ApprovalPoliciesTable {
  community_id: string;
  kind: string;
  mode: string;
  updated_at: Timestamp;
}

export interface ApprovalsTable {
  id: string;
  community_id: string;
  kind: string;
  payload: string;
  submitter_kind: string;
  submitter_id: string | null;
  submitter_name: string;
  /** The connected app the submitter wrote through (migration 0061). */
  submitter_via: ColumnType<string | null, string | null | undefined, string | null>;
  key_prefix: string | null;
  status: string;
  decided_by_kind: string | null;
  decided_by_id: string | null;
  decided_by_name: string | null;
  reason: string | null;
  result: string | null;
  created_at: Timestamp;
  decided_at: Timestamp | null;
}

export interface IdempotencyRecordsTable {
  community_id: string;
  actor: string;
  idempotency_key: string;
  request_hash: string;
  result: string;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: string;
  community_id: string | null;
  occurred_at: Timestamp;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  key_prefix: string | null;
  action: string;
  targets: string;
  outcome: string;
  error_code: string | null;
  ip: string | null;
}

export interface IdentityDatabase {
  person_credentials: PersonCredentialsTable;
  web_sessions: WebSessionsTable;
  memberships: MembershipsTable;
  agent_keys: AgentKeysTable;
  user_keys: UserKeysTable;
  approval_policies: ApprovalPoliciesTable;
  approvals: ApprovalsTable;
  idempotency_records: IdempotencyRecordsTable;
  audit_log: AuditLogTable;
}

/** The identity tables plus the narrow view of `agents` holding scopes and trust. */
export interface IdentityQueryDatabase extends IdentityDatabase {
  agents: AgentGrantColumns;
  /** Read with an agent key: the sanction on its agent comes in the same statement. */
  sanctions: SanctionsTable;
}
