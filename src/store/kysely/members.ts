// Memberships of one community: a person's role in it.
import type { Membership, MembershipRepository } from '../identity.ts';
import type { Dialect } from '../repositories.ts';
import { uniquely } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { nowIso } from '../time.ts';
import { changed, membershipFromRow, type Db } from './identity-rows.ts';

export class KyselyMembers implements MembershipRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
    private readonly dialect: Dialect,
  ) {}

  async set(personId: string, role: string): Promise<Membership> {
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

  async lockHolders(roles: readonly string[]): Promise<Membership[]> {
    if (roles.length === 0) return [];
    // One order for every caller: two transactions lock the same rows without a deadlock.
    const rows = await this.db
      .selectFrom('memberships')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('role', 'in', [...roles])
      .orderBy('person_id')
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .execute();
    return rows.map(membershipFromRow);
  }
}
