// Categories of one community, ordered by position, with their topic counts: created, changed,
// reordered, emptied into another category and deleted.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { CategoryRepository } from '../repositories.ts';
import type { Category, CategoryPatch, CategoryWithCount, NewCategory } from '../types.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso } from '../time.ts';
import { uniquely } from '../errors.ts';
import { categoryFromRow } from './rows.ts';

export class KyselyCategories implements CategoryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly communityId: string,
  ) {}

  async create(input: NewCategory): Promise<Category> {
    const position =
      input.position ??
      Number(
        (
          await this.db
            .selectFrom('categories')
            .select((eb) => eb.fn.coalesce(eb.fn.max('position'), eb.lit(0)).as('max'))
            .where('community_id', '=', this.communityId)
            .executeTakeFirst()
        )?.max ?? 0,
      ) + 1;
    const row = {
      id: newId(),
      community_id: this.communityId,
      slug: input.slug,
      name: input.name,
      description: input.description ?? '',
      position,
      kind: input.kind,
      approval_policy: input.approvalPolicy ?? null,
      created_at: nowIso(),
    };
    await uniquely('category', () => this.db.insertInto('categories').values(row).execute());
    return categoryFromRow(row);
  }

  async getById(id: string): Promise<Category | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('categories')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && categoryFromRow(row);
  }

  async getBySlug(slug: string): Promise<Category | undefined> {
    const row = await this.db
      .selectFrom('categories')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row && categoryFromRow(row);
  }

  async listWithCounts(): Promise<CategoryWithCount[]> {
    const rows = await this.db
      .selectFrom('categories')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .orderBy('position')
      .orderBy('name')
      .execute();
    return rows.map((row) => ({ ...categoryFromRow(row), topicCount: Number(row.topic_count) }));
  }

  async update(id: string, patch: CategoryPatch): Promise<Category | undefined> {
    if (!isUuid(id)) return undefined;
    const set: Record<string, unknown> = {};
    if (patch.slug !== undefined) set.slug = patch.slug;
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.kind !== undefined) set.kind = patch.kind;
    if (patch.approvalPolicy !== undefined) set.approval_policy = patch.approvalPolicy;
    if (Object.keys(set).length > 0)
      await uniquely('category', () =>
        this.db
          .updateTable('categories')
          .set(set)
          .where('community_id', '=', this.communityId)
          .where('id', '=', id)
          .execute(),
      );
    return this.getById(id);
  }

  async setOrder(ids: string[]): Promise<void> {
    for (const [i, id] of ids.entries()) {
      if (!isUuid(id)) continue;
      await this.db
        .updateTable('categories')
        .set({ position: i + 1 })
        .where('community_id', '=', this.communityId)
        .where('id', '=', id)
        .execute();
    }
  }

  async topicCount(id: string): Promise<number> {
    if (!isUuid(id)) return 0;
    const row = await this.db
      .selectFrom('topics')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('community_id', '=', this.communityId)
      .where('category_id', '=', id)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async moveTopics(from: string, to: string): Promise<number> {
    if (!isUuid(from) || !isUuid(to)) return 0;
    // Row by row through the topics' update triggers: the search index's filter facts follow.
    const result = await this.db
      .updateTable('topics')
      .set({ category_id: to, updated_at: nowIso() })
      .where('community_id', '=', this.communityId)
      .where('category_id', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async delete(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .deleteFrom('categories')
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
