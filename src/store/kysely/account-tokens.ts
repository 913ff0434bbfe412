// Single-use account tokens (verification, password reset, e-mail change: only their hash), the
// addresses people verified, and each community's rule for unverified accounts, over Kysely.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import { uniquely } from '../errors.ts';
import type { AccountTokensTable } from '../mail-schema.ts';
import type { AccountTokenRecord, AccountTokens } from '../mail.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { changed } from './identity-rows.ts';
import { mailDb, type MailDb } from './mail-outbox.ts';

function tokenFromRow(r: Selectable<AccountTokensTable>): AccountTokenRecord {
  return {
    id: r.id,
    personId: r.person_id,
    purpose: r.purpose,
    email: r.email,
    expiresAt: Number(r.expires_at),
    usedAt: r.used_at === null ? null : Number(r.used_at),
    createdAt: toIso(r.created_at),
  };
}

export class KyselyAccountTokens implements AccountTokens {
  private readonly db: MailDb;

  constructor(private readonly people: Kysely<Database>) {
    this.db = mailDb(people);
  }

  async changeEmail(personId: string, email: string): Promise<void> {
    await uniquely('person with this e-mail', () =>
      this.people
        .updateTable('people')
        .set({ email: email.toLowerCase() })
        .where('id', '=', personId)
        .execute(),
    );
  }

  async create(input: {
    personId: string;
    purpose: string;
    tokenHash: string;
    email: string;
    expiresAt: number;
  }): Promise<AccountTokenRecord> {
    const row = {
      id: newId(),
      person_id: input.personId,
      purpose: input.purpose,
      token_hash: input.tokenHash,
      email: input.email,
      expires_at: input.expiresAt,
      used_at: null,
      created_at: nowIso(),
    };
    await this.db.insertInto('account_tokens').values(row).execute();
    return tokenFromRow(row);
  }

  async consume(
    tokenHash: string,
    purpose: string,
    now: number,
  ): Promise<AccountTokenRecord | undefined> {
    const row = await this.db
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    return row ? tokenFromRow(row) : undefined;
  }

  async revokeAll(personId: string, purpose: string, now: number): Promise<number> {
    if (!isUuid(personId)) return 0;
    const result = await this.db
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('person_id', '=', personId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return changed(result);
  }

  async markVerified(personId: string, email: string, at = nowIso()): Promise<void> {
    await this.db
      .insertInto('email_verifications')
      .values({ person_id: personId, email, verified_at: at })
      .onConflict((oc) => oc.column('person_id').doUpdateSet({ email, verified_at: at }))
      .execute();
  }

  async verifiedEmail(personId: string): Promise<string | undefined> {
    if (!isUuid(personId)) return undefined;
    const row = await this.db
      .selectFrom('email_verifications')
      .select('email')
      .where('person_id', '=', personId)
      .executeTakeFirst();
    return row?.email;
  }

  async unverifiedMayPost(communityId: string): Promise<boolean | undefined> {
    if (!isUuid(communityId)) return undefined;
    const row = await this.db
      .selectFrom('community_account_rules')
      .select('unverified_may_post')
      .where('community_id', '=', communityId)
      .executeTakeFirst();
    return row ? Number(row.unverified_may_post) === 1 : undefined;
  }

  async setUnverifiedMayPost(communityId: string, value: boolean): Promise<void> {
    const at = nowIso();
    const flag = value ? 1 : 0;
    await this.db
      .insertInto('community_account_rules')
      .values({ community_id: communityId, unverified_may_post: flag, updated_at: at })
      .onConflict((oc) =>
        oc.column('community_id').doUpdateSet({ unverified_may_post: flag, updated_at: at }),
      )
      .execute();
  }
}
