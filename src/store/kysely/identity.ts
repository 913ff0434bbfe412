// Kysely implementation of the identity repositories (./../identity.ts), shared by both engines.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  AgentAccessRepository, AgentGrant, AgentKeyRecord, ApprovalPolicyRepository, ApprovalRecord, ApprovalRepository,
  ApprovalStatus, AuditEntry, AuditOutcome, AuditRepository, CommunityAccessRepositories, CredentialRepository,
  IdempotencyRecord, IdempotencyRepository, IdentityRepositories, Membership, MembershipRepository, NewApproval,
  NewAuditEntry, PolicyMode, Role, UserKeyRecord, WebSessionRecord, WriteKind,
} from '../identity.ts';
import type {
  AgentKeysTable, ApprovalsTable, AuditLogTable, IdentityQueryDatabase, MembershipsTable, UserKeysTable, WebSessionsTable,
} from '../identity-schema.ts';
import type { AuthorRef, AuthorKind, Keyset, Page } from '../types.ts';
import { randomBytes } from 'node:crypto';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso, toIsoOrNull } from '../time.ts';
import { uniquely } from '../errors.ts';

type Db = Kysely<IdentityQueryDatabase>;

let lastMs = 0;
let sequence = 0;
/**
 * A UUIDv7 (time-ordered) with a per-process counter in rand_a: audit entries written in the same
 * millisecond still sort in the order they were written (the id is the keyset tie-breaker).
 */
function timeOrderedId(ms: number): string {
  if (ms <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    ms = lastMs;
  } else {
    lastMs = ms;
    sequence = 0;
  }
  const hex = ms.toString(16).padStart(12, '0') + '7' + sequence.toString(16).padStart(3, '0') + randomBytes(8).toString('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.slice(0, 16) + variant + hex.slice(17, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
const narrow = (db: Kysely<Database>): Db => db as unknown as Db;

function sessionFromRow(row: Selectable<WebSessionsTable>): WebSessionRecord {
  return {
    id: row.id,
    personId: row.person_id,
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
    revokedAt: toIsoOrNull(row.revoked_at),
  };
}

function membershipFromRow(row: Selectable<MembershipsTable>): Membership {
  return { communityId: row.community_id, personId: row.person_id, role: row.role as Role, createdAt: toIso(row.created_at) };
}

function keyFields(row: Selectable<AgentKeysTable> | Selectable<UserKeysTable>) {
  return {
    id: row.id,
    prefix: row.prefix,
    createdAt: toIso(row.created_at),
    expiresAt: toIsoOrNull(row.expires_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    lastUsedAt: toIsoOrNull(row.last_used_at),
  };
}

function agentKeyFromRow(row: Selectable<AgentKeysTable>): AgentKeyRecord {
  return { ...keyFields(row), communityId: row.community_id, agentId: row.agent_id };
}

function userKeyFromRow(row: Selectable<UserKeysTable>): UserKeyRecord {
  return { ...keyFields(row), personId: row.person_id };
}

/** Records a key's use, at most once per interval: only when last use is before `notBefore`. */
async function touchKey(db: Db, table: 'user_keys' | 'agent_keys', id: string, at: string, notBefore: string): Promise<void> {
  await db
    .updateTable(table)
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notBefore)]))
    .execute();
}

/** The columns every new key row starts with, agent or user key alike. */
function newKeyColumns(input: { prefix: string; keyHash: string; expiresAt: string | null }) {
  return {
    id: newId(),
    prefix: input.prefix,
    key_hash: input.keyHash,
    created_at: nowIso(),
    expires_at: input.expiresAt ? toIso(input.expiresAt) : null,
    revoked_at: null,
    last_used_at: null,
  };
}

function parseJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

function approvalFromRow(row: Selectable<ApprovalsTable>): ApprovalRecord {
  return {
    id: row.id,
    communityId: row.community_id,
    kind: row.kind as WriteKind,
    payload: parseJson(row.payload),
    submitter: { kind: row.submitter_kind as AuthorKind, id: row.submitter_id, name: row.submitter_name },
    keyPrefix: row.key_prefix,
    status: row.status as ApprovalStatus,
    decidedBy: row.decided_by_kind
      ? { kind: row.decided_by_kind as AuthorKind, id: row.decided_by_id, name: row.decided_by_name ?? '' }
      : null,
    reason: row.reason,
    result: parseJson(row.result),
    createdAt: toIso(row.created_at),
    decidedAt: toIsoOrNull(row.decided_at),
  };
}

function auditFromRow(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    communityId: row.community_id,
    occurredAt: toIso(row.occurred_at),
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    actorName: row.actor_name,
    keyPrefix: row.key_prefix,
    action: row.action,
    targets: JSON.parse(row.targets) as Record<string, string>,
    outcome: row.outcome as AuditOutcome,
    errorCode: row.error_code,
    ip: row.ip,
  };
}

function changed(result: { numUpdatedRows?: bigint; numDeletedRows?: bigint } | undefined): number {
  return Number(result?.numUpdatedRows ?? result?.numDeletedRows ?? 0n);
}

export class KyselyCredentials implements CredentialRepository {
  private readonly db: Db;
  constructor(db: Kysely<Database>) {
    this.db = narrow(db);
  }

  async setPasswordHash(personId: string, hash: string): Promise<void> {
    const updated_at = nowIso();
    await this.db
      .insertInto('person_credentials')
      .values({ person_id: personId, password_hash: hash, updated_at })
      .onConflict((oc) => oc.column('person_id').doUpdateSet({ password_hash: hash, updated_at }))
      .execute();
  }

  async getPasswordHash(personId: string): Promise<string | undefined> {
    if (!isUuid(personId)) return undefined;
    const row = await this.db.selectFrom('person_credentials').select('password_hash').where('person_id', '=', personId).executeTakeFirst();
    return row?.password_hash;
  }

  async createSession(input: { personId: string; tokenHash: string; expiresAt: string }): Promise<WebSessionRecord> {
    const row = {
      id: newId(),
      person_id: input.personId,
      token_hash: input.tokenHash,
      created_at: nowIso(),
      expires_at: toIso(input.expiresAt),
      revoked_at: null,
    };
    await this.db.insertInto('web_sessions').values(row).execute();
    return sessionFromRow(row);
  }

  async findSessionByHash(tokenHash: string): Promise<WebSessionRecord | undefined> {
    const row = await this.db.selectFrom('web_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && sessionFromRow(row);
  }

  async revokeSession(tokenHash: string, at = nowIso()): Promise<boolean> {
    const result = await this.db
      .updateTable('web_sessions')
      .set({ revoked_at: at })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return changed(result) > 0;
  }

  async revokeSessionsOf(personId: string, at = nowIso()): Promise<number> {
    if (!isUuid(personId)) return 0;
    const result = await this.db
      .updateTable('web_sessions')
      .set({ revoked_at: at })
      .where('person_id', '=', personId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return changed(result);
  }

  async membershipsOf(personId: string): Promise<Membership[]> {
    if (!isUuid(personId)) return [];
    const rows = await this.db.selectFrom('memberships').selectAll().where('person_id', '=', personId).execute();
    return rows.map(membershipFromRow);
  }

  async createUserKey(input: { personId: string; prefix: string; keyHash: string; expiresAt: string | null }): Promise<UserKeyRecord> {
    const row = { ...newKeyColumns(input), person_id: input.personId };
    await uniquely('user key', () => this.db.insertInto('user_keys').values(row).execute());
    return userKeyFromRow(row);
  }

  async findUserKeyByHash(keyHash: string): Promise<(UserKeyRecord & { keyHash: string }) | undefined> {
    const row = await this.db.selectFrom('user_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row && { ...userKeyFromRow(row), keyHash: row.key_hash };
  }

  async listUserKeys(personId: string): Promise<UserKeyRecord[]> {
    if (!isUuid(personId)) return [];
    const rows = await this.db
      .selectFrom('user_keys')
      .selectAll()
      .where('person_id', '=', personId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(userKeyFromRow);
  }

  async revokeUserKey(personId: string, ref: string, at = nowIso()): Promise<number> {
    if (!isUuid(personId)) return 0;
    const result = await this.db
      .updateTable('user_keys')
      .set({ revoked_at: at })
      .where('person_id', '=', personId)
      .where('revoked_at', 'is', null)
      .where((eb) => (isUuid(ref) ? eb.or([eb('id', '=', ref), eb('prefix', '=', ref)]) : eb('prefix', '=', ref)))
      .executeTakeFirst();
    return changed(result);
  }

  touchUserKey(id: string, at: string, notBefore: string): Promise<void> {
    return touchKey(this.db, 'user_keys', id, at, notBefore);
  }

  async findAgentKeyByHash(keyHash: string): Promise<(AgentKeyRecord & { keyHash: string }) | undefined> {
    const row = await this.db.selectFrom('agent_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row && { ...agentKeyFromRow(row), keyHash: row.key_hash };
  }

  touchAgentKey(id: string, at: string, notBefore: string): Promise<void> {
    return touchKey(this.db, 'agent_keys', id, at, notBefore);
  }
}

export class KyselyAudit implements AuditRepository {
  private readonly db: Db;
  constructor(db: Kysely<Database>) {
    this.db = narrow(db);
  }

  async record(entry: NewAuditEntry): Promise<AuditEntry> {
    const occurredAt = entry.occurredAt ? toIso(entry.occurredAt) : nowIso();
    const row = {
      id: timeOrderedId(Date.parse(occurredAt)),
      community_id: entry.communityId && isUuid(entry.communityId) ? entry.communityId : null,
      occurred_at: occurredAt,
      actor_kind: entry.actorKind,
      actor_id: entry.actorId,
      actor_name: entry.actorName,
      key_prefix: entry.keyPrefix,
      action: entry.action,
      targets: JSON.stringify(entry.targets ?? {}),
      outcome: entry.outcome,
      error_code: entry.errorCode,
      ip: entry.ip,
    };
    await this.db.insertInto('audit_log').values(row).execute();
    return auditFromRow(row);
  }

  async list(communityId: string | null, page: { after?: Keyset; limit: number }): Promise<Page<AuditEntry, Keyset>> {
    if (communityId !== null && !isUuid(communityId)) return { items: [], next: null };
    let query = this.db.selectFrom('audit_log').selectAll();
    query = communityId === null ? query.where('community_id', 'is', null) : query.where('community_id', '=', communityId);
    if (page.after) {
      const { key, id } = page.after;
      query = query.where((eb) =>
        eb.or([eb('occurred_at', '<', String(key)), eb.and([eb('occurred_at', '=', String(key)), eb('id', '<', id)])]),
      );
    }
    const rows = await query.orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const items = rows.slice(0, page.limit).map(auditFromRow);
    const last = items[items.length - 1];
    return { items, next: rows.length > page.limit && last ? { key: last.occurredAt, id: last.id } : null };
  }
}

export function identityRepositories(db: Kysely<Database>): IdentityRepositories {
  return { credentials: new KyselyCredentials(db), audit: new KyselyAudit(db) };
}

class KyselyMembers implements MembershipRepository {
  constructor(private readonly db: Db, private readonly communityId: string) {}

  async set(personId: string, role: Role): Promise<Membership> {
    const existing = await this.get(personId);
    if (existing) {
      await this.db
        .updateTable('memberships')
        .set({ role })
        .where('community_id', '=', this.communityId)
        .where('person_id', '=', personId)
        .execute();
      return { ...existing, role };
    }
    const row = { community_id: this.communityId, person_id: personId, role, created_at: nowIso() };
    await uniquely('membership', () => this.db.insertInto('memberships').values(row).execute());
    return membershipFromRow(row);
  }

  async get(personId: string): Promise<Membership | undefined> {
    if (!isUuid(personId)) return undefined;
    const row = await this.db
      .selectFrom('memberships')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .executeTakeFirst();
    return row && membershipFromRow(row);
  }

  async list(): Promise<Membership[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .orderBy('created_at')
      .orderBy('person_id')
      .execute();
    return rows.map(membershipFromRow);
  }

  async remove(personId: string): Promise<boolean> {
    if (!isUuid(personId)) return false;
    const result = await this.db
      .deleteFrom('memberships')
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .executeTakeFirst();
    return changed(result) > 0;
  }
}

class KyselyAgentAccess implements AgentAccessRepository {
  constructor(private readonly db: Db, private readonly communityId: string) {}

  async getGrant(agentId: string): Promise<AgentGrant | undefined> {
    if (!isUuid(agentId)) return undefined;
    const row = await this.db
      .selectFrom('agents')
      .select(['id', 'scopes', 'trusted'])
      .where('community_id', '=', this.communityId)
      .where('id', '=', agentId)
      .executeTakeFirst();
    if (!row) return undefined;
    return { agentId: row.id, scopes: row.scopes.split(',').filter(Boolean), trusted: Number(row.trusted) === 1 };
  }

  async setGrant(agentId: string, grant: { scopes: string[]; trusted: boolean }): Promise<boolean> {
    if (!isUuid(agentId)) return false;
    const result = await this.db
      .updateTable('agents')
      .set({ scopes: [...new Set(grant.scopes)].join(','), trusted: grant.trusted ? 1 : 0 })
      .where('community_id', '=', this.communityId)
      .where('id', '=', agentId)
      .executeTakeFirst();
    return changed(result) > 0;
  }

  async createKey(input: { agentId: string; prefix: string; keyHash: string; expiresAt: string | null }): Promise<AgentKeyRecord> {
    const row = { ...newKeyColumns(input), community_id: this.communityId, agent_id: input.agentId };
    await uniquely('agent key', () => this.db.insertInto('agent_keys').values(row).execute());
    return agentKeyFromRow(row);
  }

  async listKeys(agentId?: string): Promise<AgentKeyRecord[]> {
    if (agentId !== undefined && !isUuid(agentId)) return [];
    let query = this.db.selectFrom('agent_keys').selectAll().where('community_id', '=', this.communityId);
    if (agentId !== undefined) query = query.where('agent_id', '=', agentId);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(agentKeyFromRow);
  }

  async findKeys(ref: string): Promise<AgentKeyRecord[]> {
    const rows = await this.db
      .selectFrom('agent_keys')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where((eb) => (isUuid(ref) ? eb.or([eb('id', '=', ref), eb('prefix', '=', ref)]) : eb('prefix', '=', ref)))
      .execute();
    return rows.map(agentKeyFromRow);
  }

  async revokeKey(id: string, at = nowIso()): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .updateTable('agent_keys')
      .set({ revoked_at: at })
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return changed(result) > 0;
  }
}

class KyselyPolicies implements ApprovalPolicyRepository {
  constructor(private readonly db: Db, private readonly communityId: string) {}

  async get(kind: WriteKind): Promise<PolicyMode | undefined> {
    const row = await this.db
      .selectFrom('approval_policies')
      .select('mode')
      .where('community_id', '=', this.communityId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row?.mode as PolicyMode | undefined;
  }

  async set(kind: WriteKind, mode: PolicyMode): Promise<void> {
    const updated_at = nowIso();
    await this.db
      .insertInto('approval_policies')
      .values({ community_id: this.communityId, kind, mode, updated_at })
      .onConflict((oc) => oc.columns(['community_id', 'kind']).doUpdateSet({ mode, updated_at }))
      .execute();
  }

  async list(): Promise<{ kind: WriteKind; mode: PolicyMode }[]> {
    const rows = await this.db
      .selectFrom('approval_policies')
      .select(['kind', 'mode'])
      .where('community_id', '=', this.communityId)
      .orderBy('kind')
      .execute();
    return rows.map((r) => ({ kind: r.kind as WriteKind, mode: r.mode as PolicyMode }));
  }
}

class KyselyApprovals implements ApprovalRepository {
  constructor(private readonly db: Db, private readonly communityId: string) {}

  async create(input: NewApproval): Promise<ApprovalRecord> {
    const row = {
      id: newId(),
      community_id: this.communityId,
      kind: input.kind,
      payload: JSON.stringify(input.payload),
      submitter_kind: input.submitter.kind,
      submitter_id: input.submitter.id,
      submitter_name: input.submitter.name,
      key_prefix: input.keyPrefix,
      status: 'pending',
      decided_by_kind: null,
      decided_by_id: null,
      decided_by_name: null,
      reason: null,
      result: null,
      created_at: input.createdAt ? toIso(input.createdAt) : nowIso(),
      decided_at: null,
    };
    await this.db.insertInto('approvals').values(row).execute();
    return approvalFromRow(row);
  }

  async getById(id: string): Promise<ApprovalRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('approvals')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && approvalFromRow(row);
  }

  async list(query: { status?: ApprovalStatus; submitterId?: string; after?: Keyset; limit: number }): Promise<Page<ApprovalRecord, Keyset>> {
    let q = this.db.selectFrom('approvals').selectAll().where('community_id', '=', this.communityId);
    if (query.status) q = q.where('status', '=', query.status);
    if (query.submitterId) {
      if (!isUuid(query.submitterId)) return { items: [], next: null };
      q = q.where('submitter_id', '=', query.submitterId);
    }
    if (query.after) {
      const { key, id } = query.after;
      q = q.where((eb) => eb.or([eb('created_at', '>', String(key)), eb.and([eb('created_at', '=', String(key)), eb('id', '>', id)])]));
    }
    const rows = await q.orderBy('created_at').orderBy('id').limit(query.limit + 1).execute();
    const items = rows.slice(0, query.limit).map(approvalFromRow);
    const last = items[items.length - 1];
    return { items, next: rows.length > query.limit && last ? { key: last.createdAt, id: last.id } : null };
  }

  async decide(id: string, to: 'approved' | 'rejected' | 'failed', decidedBy: AuthorRef, reason: string | null, at = nowIso()): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .updateTable('approvals')
      .set({
        status: to,
        decided_by_kind: decidedBy.kind,
        decided_by_id: decidedBy.id,
        decided_by_name: decidedBy.name,
        reason,
        decided_at: at,
      })
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return changed(result) === 1;
  }

  async complete(id: string, to: 'applied' | 'failed', result: unknown, reason: string | null): Promise<boolean> {
    if (!isUuid(id)) return false;
    const updated = await this.db
      .updateTable('approvals')
      .set({ status: to, result: result === undefined ? null : JSON.stringify(result), ...(reason !== null ? { reason } : {}) })
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    return changed(updated) === 1;
  }
}

class KyselyIdempotency implements IdempotencyRepository {
  constructor(private readonly db: Db, private readonly communityId: string) {}

  async find(actor: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('actor', '=', actor)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return row && { requestHash: row.request_hash, result: JSON.parse(row.result), createdAt: toIso(row.created_at) };
  }

  async insert(input: { actor: string; key: string; requestHash: string; result: unknown }): Promise<void> {
    await uniquely('idempotency key', () =>
      this.db
        .insertInto('idempotency_records')
        .values({
          community_id: this.communityId,
          actor: input.actor,
          idempotency_key: input.key,
          request_hash: input.requestHash,
          result: JSON.stringify(input.result ?? null),
          created_at: nowIso(),
        })
        .execute(),
    );
  }

  async setResult(actor: string, key: string, result: unknown): Promise<void> {
    await this.db
      .updateTable('idempotency_records')
      .set({ result: JSON.stringify(result ?? null) })
      .where('community_id', '=', this.communityId)
      .where('actor', '=', actor)
      .where('idempotency_key', '=', key)
      .execute();
  }
}

export function communityAccessRepositories(db: Kysely<Database>, communityId: string): CommunityAccessRepositories {
  const d = narrow(db);
  return {
    members: new KyselyMembers(d, communityId),
    agents: new KyselyAgentAccess(d, communityId),
    policies: new KyselyPolicies(d, communityId),
    approvals: new KyselyApprovals(d, communityId),
    idempotency: new KyselyIdempotency(d, communityId),
  };
}
