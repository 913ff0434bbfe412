// Categories of one community, ordered by position, with their topic counts.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { CategoryRepository } from '../repositories.ts';
import type { Category, CategoryWithCount, NewCategory } from '../types.ts';
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
      .selectFrom('categories as c')
      .leftJoin('topics as t', (join) =>
        join.onRef('t.category_id', '=', 'c.id').onRef('t.community_id', '=', 'c.community_id'),
      )
      .where('c.community_id', '=', this.communityId)
      .groupBy('c.id')
      .selectAll('c')
      // Counting a column of the (community, category, …) index keeps the count inside the index.
      .select((eb) => eb.fn.count<string | number>('t.category_id').as('topic_count'))
      .orderBy('c.position')
      .orderBy('c.name')
      .execute();
    return rows.map((row) => ({ ...categoryFromRow(row), topicCount: Number(row.topic_count) }));
  }
}
