// Memberships of one community: a person's role in it.
import { sql } from 'kysely';
import type { CommunityPerson, Membership, MembershipRepository } from '../identity.ts';
import type { Dialect } from '../repositories.ts';
import type { Keyset, Page } from '../types.ts';
import { uniquely } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
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

  async people(page: {
    after?: Keyset;
    limit: number;
    query?: string;
  }): Promise<Page<CommunityPerson, Keyset>> {
    const c = this.communityId;
    // Role holders, and authors of this community's posts (topics' first posts included) who hold
    // none; a role holder's date is the membership's, the others' their first post's.
    const conditions = [];
    if (page.after)
      conditions.push(
        sql`(x.joined_at < ${String(page.after.key)} or (x.joined_at = ${String(page.after.key)} and x.id < ${page.after.id}))`,
      );
    if (page.query) {
      // A part of the name, e-mail address or handle, in any case; LIKE's own wildcards in what
      // was typed match themselves.
      const like = `%${page.query.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      conditions.push(
        sql`(lower(x.display_name) like ${like} escape '\\' or lower(coalesce(x.email, '')) like ${like} escape '\\' or coalesce(x.handle, '') like ${like} escape '\\')`,
      );
    }
    const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
    const rows = await sql<{
      id: string;
      display_name: string;
      email: string | null;
      handle: string | null;
      role: string | null;
      joined_at: string | Date;
    }>`
      select * from (
        select p.id, p.display_name, p.email, p.handle, m.role,
          coalesce(m.created_at, f.first_at) as joined_at
        from (
          select person_id as pid from memberships where community_id = ${c}
          union
          select author_id from posts
          where community_id = ${c} and author_kind = 'person' and author_id is not null
        ) ids
        join people p on p.id = ids.pid
        left join memberships m on m.community_id = ${c} and m.person_id = p.id
        left join (
          select author_id, min(created_at) as first_at from posts
          where community_id = ${c} and author_kind = 'person' and author_id is not null
          group by author_id
        ) f on f.author_id = p.id
      ) x ${where}
      order by x.joined_at desc, x.id desc
      limit ${page.limit + 1}`.execute(this.db);
    const items = rows.rows.slice(0, page.limit).map((r) => ({
      personId: r.id,
      displayName: r.display_name,
      email: r.email,
      handle: r.handle,
      role: r.role,
      joinedAt: toIso(r.joined_at),
    }));
    const last = items.at(-1);
    return {
      items,
      next:
        rows.rows.length > page.limit && last ? { key: last.joinedAt, id: last.personId } : null,
    };
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
