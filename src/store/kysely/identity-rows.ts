// Row mapping shared by the identity repositories (one file each beside this one): rows of the
// identity tables → records, the columns a new key starts with, and time-ordered ids.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  AgentKeyRecord,
  ApprovalRecord,
  AuditEntry,
  AuditOutcome,
  Membership,
  UserKeyRecord,
  WebSessionRecord,
} from '../identity.ts';
import type {
  AgentKeysTable,
  ApprovalsTable,
  AuditLogTable,
  IdentityQueryDatabase,
  MembershipsTable,
  UserKeysTable,
  WebSessionsTable,
} from '../identity-schema.ts';
import type { AuthorKind } from '../types.ts';
import { randomFillSync } from 'node:crypto';
import { newId } from '../ids.ts';
import { nowIso, toIso, toIsoOrNull } from '../time.ts';
import { authorRef } from './rows.ts';

export type Db = Kysely<IdentityQueryDatabase>;

let lastMs = 0;
let sequence = 0;

/** Random bytes for ids, drawn 8 at a time from a pool filled 2 KiB at once (one call per id cost ~2% of a read's CPU). */
const pool = Buffer.alloc(2048);
let poolAt = pool.length;
function randomHex8(): string {
  if (poolAt >= pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += 8;
  return pool.toString('hex', poolAt - 8, poolAt);
}
/**
 * A UUIDv7 (time-ordered) with a per-process counter in rand_a: audit entries written in the same
 * millisecond still sort in the order they were written (the id is the keyset tie-breaker).
 */
export function timeOrderedId(ms: number): string {
  if (ms <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    ms = lastMs;
  } else {
    lastMs = ms;
    sequence = 0;
  }
  const hex =
    ms.toString(16).padStart(12, '0') + '7' + sequence.toString(16).padStart(3, '0') + randomHex8();
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.slice(0, 16) + variant + hex.slice(17, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
export const narrow = (db: Kysely<Database>): Db => db as unknown as Db;

export function sessionFromRow(row: Selectable<WebSessionsTable>): WebSessionRecord {
  return {
    id: row.id,
    personId: row.person_id,
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    ticketHost: row.ticket_host,
  };
}

export function membershipFromRow(row: Selectable<MembershipsTable>): Membership {
  return {
    communityId: row.community_id,
    personId: row.person_id,
    role: row.role,
    createdAt: toIso(row.created_at),
  };
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

/** An agent's scopes as stored (one comma-separated column). */
export function grantScopes(column: string): string[] {
  return column.split(',').filter(Boolean);
}

export function agentKeyFromRow(row: Selectable<AgentKeysTable>): AgentKeyRecord {
  return { ...keyFields(row), communityId: row.community_id, agentId: row.agent_id };
}

export function userKeyFromRow(row: Selectable<UserKeysTable>): UserKeyRecord {
  return { ...keyFields(row), personId: row.person_id };
}

/** Records a key's use, at most once per interval: only when last use is before `notBefore`. */
export async function touchKey(
  db: Db,
  table: 'user_keys' | 'agent_keys',
  id: string,
  at: string,
  notBefore: string,
): Promise<void> {
  await db
    .updateTable(table)
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notBefore)]))
    .execute();
}

/** The columns every new key row starts with, agent or user key alike. */
export function newKeyColumns(input: {
  prefix: string;
  keyHash: string;
  expiresAt: string | null;
}) {
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

export function parseJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

export function approvalFromRow(row: Selectable<ApprovalsTable>): ApprovalRecord {
  return {
    id: row.id,
    communityId: row.community_id,
    kind: row.kind,
    payload: parseJson(row.payload),
    submitter: authorRef(
      row.submitter_kind,
      row.submitter_id,
      row.submitter_name,
      row.submitter_via,
    ),
    keyPrefix: row.key_prefix,
    status: row.status,
    decidedBy: row.decided_by_kind
      ? {
          kind: row.decided_by_kind as AuthorKind,
          id: row.decided_by_id,
          name: row.decided_by_name ?? '',
        }
      : null,
    reason: row.reason,
    result: parseJson(row.result),
    createdAt: toIso(row.created_at),
    decidedAt: toIsoOrNull(row.decided_at),
  };
}

export function auditFromRow(row: Selectable<AuditLogTable>): AuditEntry {
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

export function changed(
  result: { numUpdatedRows?: bigint; numDeletedRows?: bigint } | undefined,
): number {
  return Number(result?.numUpdatedRows ?? result?.numDeletedRows ?? 0n);
}
