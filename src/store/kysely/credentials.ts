// People's credentials (password hashes, web sessions, user keys) and agent keys by hash: the
// records authentication reads, none of them community-scoped.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  CredentialRepository,
  Membership,
  UserKeyRecord,
  WebSessionRecord,
} from '../identity.ts';
import { uniquely } from '../errors.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import {
  agentKeyFromRow,
  changed,
  grantScopes,
  membershipFromRow,
  narrow,
  newKeyColumns,
  sessionFromRow,
  touchKey,
  userKeyFromRow,
  type Db,
} from './identity-rows.ts';
import { sanctionFromRow } from './moderation.ts';
import { compiledOnce } from './compiled-once.ts';

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
    const row = await this.db
      .selectFrom('person_credentials')
      .select('password_hash')
      .where('person_id', '=', personId)
      .executeTakeFirst();
    return row?.password_hash;
  }

  async createSession(input: {
    personId: string;
    tokenHash: string;
    createdAt?: string;
    expiresAt: string;
    ticketHost?: string;
  }): Promise<WebSessionRecord> {
    const row = {
      id: newId(),
      person_id: input.personId,
      token_hash: input.tokenHash,
      created_at: input.createdAt ? toIso(input.createdAt) : nowIso(),
      expires_at: toIso(input.expiresAt),
      revoked_at: null,
      ticket_host: input.ticketHost ?? null,
    };
    await this.db.insertInto('web_sessions').values(row).execute();
    return sessionFromRow(row);
  }

  async findSessionByHash(tokenHash: string): Promise<WebSessionRecord | undefined> {
    const row = await this.db
      .selectFrom('web_sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
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
    const rows = await this.db
      .selectFrom('memberships')
      .selectAll()
      .where('person_id', '=', personId)
      .execute();
    return rows.map(membershipFromRow);
  }

  async createUserKey(input: {
    personId: string;
    prefix: string;
    keyHash: string;
    expiresAt: string | null;
  }): Promise<UserKeyRecord> {
    const row = { ...newKeyColumns(input), person_id: input.personId };
    await uniquely('user key', () => this.db.insertInto('user_keys').values(row).execute());
    return userKeyFromRow(row);
  }

  async findUserKeyByHash(
    keyHash: string,
  ): Promise<(UserKeyRecord & { keyHash: string }) | undefined> {
    const row = await this.db
      .selectFrom('user_keys')
      .selectAll()
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
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
      .where((eb) =>
        isUuid(ref) ? eb.or([eb('id', '=', ref), eb('prefix', '=', ref)]) : eb('prefix', '=', ref),
      )
      .executeTakeFirst();
    return changed(result);
  }

  async touchUserKey(id: string, at: string, notBefore: string): Promise<void> {
    return touchKey(this.db, 'user_keys', id, at, notBefore);
  }

  async findAgentKeyByHash(keyHash: string) {
    const [row] = await agentKeyByHash(this.db, keyHash);
    if (!row) return undefined;
    const { agent_name, agent_scopes, agent_trusted, ...rest } = row;
    const { s_subject_name, s_mode, s_reason, s_ends_at, s_by_name, s_created_at, ...key } = rest;
    return {
      ...agentKeyFromRow(key),
      keyHash: key.key_hash,
      agent:
        agent_name === null
          ? undefined
          : {
              name: agent_name,
              scopes: grantScopes(agent_scopes ?? ''),
              trusted: Number(agent_trusted) === 1,
            },
      sanction:
        s_mode === null
          ? undefined
          : sanctionFromRow({
              community_id: key.community_id,
              subject_kind: 'agent',
              subject_id: key.agent_id,
              subject_name: s_subject_name!,
              mode: s_mode,
              reason: s_reason!,
              ends_at: s_ends_at!,
              by_name: s_by_name!,
              created_at: s_created_at!,
            }),
    };
  }

  async touchAgentKey(id: string, at: string, notBefore: string): Promise<void> {
    return touchKey(this.db, 'agent_keys', id, at, notBefore);
  }
}

/** An agent key by its hash, with its agent and any sanction on it: read by every agent request. */
const agentKeyByHash = compiledOnce((db: Db, keyHash: string) =>
  db
    .selectFrom('agent_keys as k')
    .leftJoin('agents as a', (j) =>
      j.onRef('a.community_id', '=', 'k.community_id').onRef('a.id', '=', 'k.agent_id'),
    )
    .leftJoin('sanctions as s', (j) =>
      j
        .onRef('s.community_id', '=', 'k.community_id')
        .on('s.subject_kind', '=', 'agent')
        .onRef('s.subject_id', '=', 'k.agent_id'),
    )
    .selectAll('k')
    .select(['a.name as agent_name', 'a.scopes as agent_scopes', 'a.trusted as agent_trusted'])
    .select([
      's.subject_name as s_subject_name',
      's.mode as s_mode',
      's.reason as s_reason',
      's.ends_at as s_ends_at',
      's.by_name as s_by_name',
      's.created_at as s_created_at',
    ])
    .where('k.key_hash', '=', keyHash),
);
