// The directory of communities: by id, slug or custom domain, the public ones in slug order, the
// public ones whose words match a subject's (community-text.ts), and in files by ordinal
// (listing-files.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { CommunityDirectory, Dialect } from '../repositories.ts';
import type {
  Community,
  CommunityMatch,
  CommunityPatch,
  Keyset,
  ListedCommunity,
  NewCommunity,
  Page,
} from '../types.ts';
import { newId, isUuid } from '../ids.ts';
import { nowIso } from '../time.ts';
import { uniquely } from '../errors.ts';
import { communityFromRow } from './rows.ts';
import { matchPublicCommunities } from './community-text.ts';
import { lastCommunityOrdinal, publicCommunitiesByOrdinal } from './listing-files.ts';

export class KyselyCommunities implements CommunityDirectory {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async create(input: NewCommunity): Promise<Community> {
    const now = nowIso();
    const row = {
      id: newId(),
      slug: input.slug,
      name: input.name,
      description: input.description ?? '',
      guidelines: input.guidelines ?? '',
      visibility: input.visibility,
      custom_domain: input.customDomain ?? null,
      created_at: now,
      updated_at: now,
    };
    await uniquely('community', () => this.db.insertInto('communities').values(row).execute());
    return communityFromRow(row);
  }

  async getById(id: string): Promise<Community | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('communities')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && communityFromRow(row);
  }

  async getByIds(ids: string[]): Promise<Community[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const rows = await this.db
      .selectFrom('communities')
      .selectAll()
      .where('id', 'in', valid)
      .execute();
    return rows.map(communityFromRow);
  }

  async getBySlug(slug: string): Promise<Community | undefined> {
    const row = await this.db
      .selectFrom('communities')
      .selectAll()
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row && communityFromRow(row);
  }

  async getBySlugs(slugs: string[]): Promise<Community[]> {
    if (slugs.length === 0) return [];
    const rows = await this.db
      .selectFrom('communities')
      .selectAll()
      .where('slug', 'in', slugs)
      .execute();
    return rows.map(communityFromRow);
  }

  async getByDomain(domain: string): Promise<Community | undefined> {
    const row = await this.db
      .selectFrom('communities')
      .selectAll()
      .where('custom_domain', '=', domain.toLowerCase())
      .executeTakeFirst();
    return row && communityFromRow(row);
  }

  async update(id: string, patch: CommunityPatch): Promise<Community | undefined> {
    if (!isUuid(id)) return undefined;
    const set: Record<string, unknown> = { updated_at: nowIso() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.guidelines !== undefined) set.guidelines = patch.guidelines;
    if (patch.visibility !== undefined) set.visibility = patch.visibility;
    if (patch.customDomain !== undefined)
      set.custom_domain = patch.customDomain?.toLowerCase() ?? null;
    await uniquely('custom domain', () =>
      this.db.updateTable('communities').set(set).where('id', '=', id).execute(),
    );
    return this.getById(id);
  }

  async listPublic(page: { after?: Keyset; limit: number }): Promise<Page<Community, Keyset>> {
    let query = this.db.selectFrom('communities').selectAll().where('visibility', '=', 'public');
    if (page.after) query = query.where('slug', '>', String(page.after.key));
    const rows = await query
      .orderBy('slug')
      .limit(page.limit + 1)
      .execute();
    const items = rows.slice(0, page.limit).map(communityFromRow);
    const last = items[items.length - 1];
    return {
      items,
      next: rows.length > page.limit && last ? { key: last.slug, id: last.id } : null,
    };
  }

  async listAll(): Promise<Community[]> {
    const rows = await this.db.selectFrom('communities').selectAll().orderBy('slug').execute();
    return rows.map(communityFromRow);
  }

  async matchPublic(words: string[], limit: number): Promise<CommunityMatch[]> {
    return matchPublicCommunities(this.db, this.dialect, words, limit);
  }

  async lastOrdinal(): Promise<number> {
    return lastCommunityOrdinal(this.db);
  }

  async publicByOrdinal(after: number, through: number): Promise<ListedCommunity[]> {
    return publicCommunitiesByOrdinal(this.db, after, through);
  }
}
