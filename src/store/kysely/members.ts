// Memberships of one community: a person's role in it.
import { sql } from 'kysely';
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

  async withHandlePrefix(
    prefix: string,
    limit: number,
  ): Promise<{ personId: string; handle: string; displayName: string }[]> {
    // LIKE's own wildcards in what was typed match themselves.
    const like = `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await sql<{ id: string; handle: string; display_name: string }>`
      select p.id, p.handle, p.display_name from memberships m join people p on p.id = m.person_id
      where m.community_id = ${this.communityId} and p.handle is not null
        and (p.handle like ${like} escape '\\' or lower(p.display_name) like ${like} escape '\\')
      order by case when p.handle like ${like} escape '\\' then 0 else 1 end, p.handle
      limit ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({
      personId: r.id,
      handle: r.handle,
      displayName: r.display_name,
    }));
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
