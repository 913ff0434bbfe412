// Topics of one community: create, look up by id or slug, keyset-paginated listings, tags, and
// the listed ones in files by ordinal (listing-files.ts).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { Dialect, TopicHeader, TopicRepository } from '../repositories.ts';
import type {
  Keyset,
  ListedEntry,
  NewTopic,
  Page,
  Topic,
  TopicPatch,
  TopicQuery,
} from '../types.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { isForeignKeyViolation, MissingRow, uniquely } from '../errors.ts';
import { authorColumns, categoryFromRow, topicFromRow } from './rows.ts';
import { compiledOnce } from './compiled-once.ts';
import { lastTopicOrdinal, listedTopicsByOrdinal } from './listing-files.ts';

const SORT_COLUMN = { latest: 'last_posted_at', created: 'created_at', top: 'post_count' } as const;

export class KyselyTopics implements TopicRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly communityId: string,
    private readonly dialect: Dialect,
  ) {}

  private scoped() {
    return this.db.selectFrom('topics').selectAll().where('community_id', '=', this.communityId);
  }

  /**
   * One topic, in one statement with its category, its tags (newline-separated: a tag is a-z, 0-9
   * and "-") and whether it has hidden posts or open duplicates (its page skips those reads when
   * it has none).
   */
  private async one(column: 'id' | 'slug', value: string): Promise<Topic | undefined> {
    const [row] = await topicAlone[this.dialect][column](this.db, this.communityId, value);
    if (!row) return undefined;
    const topic = topicFromRow(row, row.tag_list ? row.tag_list.split('\n').sort() : []);
    // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
    topic.moderation.hasHidden = Number(row.has_hidden) === 1;
    topic.moderation.hasDuplicates = Number(row.has_duplicates) === 1;
    if (row.c_id !== null)
      topic.category = categoryFromRow({
        id: row.c_id,
        community_id: row.community_id,
        slug: row.c_slug!,
        name: row.c_name!,
        description: row.c_description!,
        position: row.c_position!,
        kind: row.c_kind!,
        approval_policy: row.c_approval_policy,
        created_at: row.c_created_at!,
      });
    return topic;
  }

  async create(input: NewTopic): Promise<Topic> {
    if (!isUuid(input.categoryId)) throw new MissingRow('category');
    const at = input.createdAt ? toIso(input.createdAt) : nowIso();
    const row = {
      id: newId(),
      community_id: this.communityId,
      category_id: input.categoryId,
      slug: input.slug,
      title: input.title,
      ...authorColumns(input.author),
      status: 'open',
      solution_post_id: null,
      post_count: 0,
      created_at: at,
      updated_at: at,
      last_posted_at: at,
    };
    // The category must be this community's: the composite foreign key (community, category) says so.
    await uniquely('topic slug', async () => {
      try {
        await this.db.insertInto('topics').values(row).execute();
      } catch (err) {
        if (isForeignKeyViolation(err)) throw new MissingRow('category');
        throw err;
      }
    });
    const tags = input.tags ?? [];
    if (tags.length) await this.setTags(row.id, tags);
    return topicFromRow(row, [...tags].sort());
  }

  async getById(id: string): Promise<Topic | undefined> {
    if (!isUuid(id)) return undefined;
    return this.one('id', id);
  }

  async getBySlug(slug: string): Promise<Topic | undefined> {
    return this.one('slug', slug);
  }

  async headers(ids: string[]): Promise<Map<string, TopicHeader>> {
    const valid = [...new Set(ids.filter(isUuid))];
    if (valid.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('topics')
      .select(['id', 'slug', 'title', 'solution_post_id'])
      .where('community_id', '=', this.communityId)
      .where('id', 'in', valid)
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        { id: r.id, slug: r.slug, title: r.title, solutionPostId: r.solution_post_id },
      ]),
    );
  }

  async slugAvailable(slug: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('topics')
      .select('id')
      .where('community_id', '=', this.communityId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    return !row;
  }

  async slugsLike(base: string): Promise<string[]> {
    // LIKE wildcards cannot occur: slugs are [a-z0-9-] (validated by the domain).
    const rows = await this.db
      .selectFrom('topics')
      .select('slug')
      .where('community_id', '=', this.communityId)
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
      .execute();
    return rows.map((r) => r.slug);
  }

  async list(query: TopicQuery): Promise<Page<Topic, Keyset>> {
    const column = SORT_COLUMN[query.sort];
    // Listings leave out what moderators deleted or merged away; `unpinned` leaves out the pinned
    // topics a first page shows above the rest (moderation.pinned).
    let q = this.scoped().where('deleted_at', 'is', null).where('merged_into', 'is', null);
    if (query.unpinned) q = q.where('pinned_at', 'is', null);
    if (query.categoryId) q = q.where('category_id', '=', query.categoryId);
    if (query.tag) {
      const tag = query.tag;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('topic_tags')
            .select('topic_tags.tag')
            .whereRef('topic_tags.topic_id', '=', 'topics.id')
            .where('topic_tags.community_id', '=', this.communityId)
            .where('topic_tags.tag', '=', tag),
        ),
      );
    }
    // Literal conditions (no bound parameter), so the partial indexes of 0051_topic_listings apply.
    // Unanswered: questions without a reply; a knowledge-base article is not a question.
    if (query.filter === 'unanswered')
      q = q
        .where(sql<boolean>`post_count <= 1`)
        .where('solution_post_id', 'is', null)
        .where(
          'category_id',
          'not in',
          this.db
            .selectFrom('categories')
            .select('categories.id')
            .where('categories.community_id', '=', this.communityId)
            .where('categories.kind', '=', 'knowledge_base'),
        );
    if (query.filter === 'solved') q = q.where('solution_post_id', 'is not', null);
    if (query.after) {
      const { key, id } = query.after;
      q = q.where((eb) =>
        eb.or([eb(column, '<', key), eb.and([eb(column, '=', key), eb('id', '<', id)])]),
      );
    }
    let ordered = q
      .orderBy(column, 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1);
    if (query.offset) ordered = ordered.offset(query.offset);
    const rows = await ordered.execute();
    const pageRows = rows.slice(0, query.limit);
    const tags = await this.tagsOfMany(pageRows.map((r) => r.id));
    const items = pageRows.map((r) => topicFromRow(r, tags.get(r.id) ?? []));
    const last = items[items.length - 1];
    let next: Keyset | null = null;
    if (rows.length > query.limit && last) {
      const key =
        column === 'post_count'
          ? last.postCount
          : column === 'created_at'
            ? last.createdAt
            : last.lastPostedAt;
      next = { key, id: last.id };
    }
    return { items, next };
  }

  async update(id: string, patch: TopicPatch): Promise<Topic | undefined> {
    if (!isUuid(id)) return undefined;
    const set: Record<string, unknown> = { updated_at: nowIso() };
    if (patch.title !== undefined) set.title = patch.title;
    if (patch.status !== undefined) set.status = patch.status;
    if (patch.solutionPostId !== undefined) set.solution_post_id = patch.solutionPostId;
    if (patch.categoryId !== undefined) set.category_id = patch.categoryId;
    const result = await this.db
      .updateTable('topics')
      .set(set)
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.getById(id);
  }

  async setTags(id: string, tags: string[]): Promise<void> {
    await this.db
      .deleteFrom('topic_tags')
      .where('community_id', '=', this.communityId)
      .where('topic_id', '=', id)
      .execute();
    const unique = [...new Set(tags)];
    if (unique.length === 0) return;
    await this.db
      .insertInto('topic_tags')
      .values(unique.map((tag) => ({ community_id: this.communityId, topic_id: id, tag })))
      .execute();
  }

  async listTags(limit: number): Promise<{ tag: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('topic_tags')
      .select(['tag', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('community_id', '=', this.communityId)
      .groupBy('tag')
      .orderBy('n', 'desc')
      .orderBy('tag')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ tag: r.tag, count: Number(r.n) }));
  }

  async lastOrdinal(): Promise<number> {
    return lastTopicOrdinal(this.db, this.communityId);
  }

  async listedByOrdinal(
    after: number,
    through: number,
  ): Promise<Array<ListedEntry & { id: string }>> {
    return listedTopicsByOrdinal(this.db, this.communityId, after, through);
  }

  private async tagsOfMany(ids: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    if (ids.length === 0) return map;
    const rows = await this.db
      .selectFrom('topic_tags')
      .select(['topic_id', 'tag'])
      .where('community_id', '=', this.communityId)
      .where('topic_id', 'in', ids)
      .execute();
    for (const r of rows) {
      const list = map.get(r.topic_id) ?? [];
      list.push(r.tag);
      map.set(r.topic_id, list);
    }
    // Sorted here: an ORDER BY tag would make SQLite walk the community's whole tag index.
    for (const list of map.values()) list.sort();
    return map;
  }
}

/** The statement of a topic read alone (KyselyTopics.one), per engine and column. */
const topicAlone = {
  sqlite: { id: topicAloneQuery('sqlite', 'id'), slug: topicAloneQuery('sqlite', 'slug') },
  postgres: { id: topicAloneQuery('postgres', 'id'), slug: topicAloneQuery('postgres', 'slug') },
};

function topicAloneQuery(dialect: Dialect, column: 'id' | 'slug') {
  const joined =
    dialect === 'postgres' ? sql`string_agg(tt.tag, chr(10))` : sql`group_concat(tt.tag, char(10))`;
  const tagList = sql<
    string | null
  >`(select ${joined} from topic_tags tt where tt.community_id = topics.community_id and tt.topic_id = topics.id)`;
  return compiledOnce((db: Kysely<Database>, communityId: string, value: string) =>
    db
      .selectFrom('topics')
      .leftJoin('categories as c', (j) =>
        j
          .onRef('c.community_id', '=', 'topics.community_id')
          .onRef('c.id', '=', 'topics.category_id'),
      )
      .selectAll('topics')
      .select([
        'c.id as c_id',
        'c.slug as c_slug',
        'c.name as c_name',
        'c.description as c_description',
        'c.position as c_position',
        'c.kind as c_kind',
        'c.approval_policy as c_approval_policy',
        'c.created_at as c_created_at',
        tagList.as('tag_list'),
        sql<unknown>`exists(select 1 from hidden_posts h where h.community_id = topics.community_id and h.topic_id = topics.id)`.as(
          'has_hidden',
        ),
        sql<unknown>`exists(select 1 from topics d where d.community_id = topics.community_id and d.duplicate_of = topics.id and d.deleted_at is null)`.as(
          'has_duplicates',
        ),
      ])
      .where('topics.community_id', '=', communityId)
      .where(`topics.${column}`, '=', value),
  );
}
