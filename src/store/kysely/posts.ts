// Posts of one community's topics: appended in position order, bumping the topic's counters.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { PageBytes, PostRepository } from '../repositories.ts';
import type { Keyset, NewPost, Page, Post, Rendered } from '../types.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { MissingRow } from '../errors.ts';
import { authorColumns, postFromRow, renderedColumns } from './rows.ts';
import { newestFirst } from './newest-first.ts';
import { compiledOnce } from './compiled-once.ts';

export class KyselyPosts implements PostRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly communityId: string,
  ) {}

  private scoped() {
    return this.db.selectFrom('posts').selectAll().where('community_id', '=', this.communityId);
  }

  async create(input: NewPost): Promise<Post> {
    if (!isUuid(input.topicId)) throw new MissingRow('topic');
    const at = input.createdAt ? toIso(input.createdAt) : nowIso();
    // One UPDATE … RETURNING both reserves the position and bumps the counters: PostgreSQL locks the
    // topic row until commit, SQLite serializes writers, so concurrent replies never share a position.
    // last_posted_at only moves forward (imported posts may carry older dates).
    const bumped = await this.db
      .updateTable('topics')
      .set((eb) => ({
        post_count: eb('post_count', '+', 1),
        updated_at: sql`case when updated_at < ${at} then ${at} else updated_at end`,
        last_posted_at: sql`case when last_posted_at < ${at} then ${at} else last_posted_at end`,
      }))
      .where('community_id', '=', this.communityId)
      .where('id', '=', input.topicId)
      .returning('post_count')
      .executeTakeFirst();
    if (!bumped) throw new MissingRow('topic');
    const row = {
      id: newId(),
      community_id: this.communityId,
      topic_id: input.topicId,
      position: Number(bumped.post_count),
      ...authorColumns(input.author),
      body: input.body,
      ...renderedColumns(input.rendered),
      created_at: at,
      edited_at: null,
    };
    await this.db.insertInto('posts').values(row).execute();
    return postFromRow(row);
  }

  async getById(id: string): Promise<Post | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.scoped().where('id', '=', id).executeTakeFirst();
    return row && postFromRow(row);
  }

  async getByIds(ids: string[]): Promise<Map<string, Post>> {
    const valid = [...new Set(ids.filter(isUuid))];
    if (valid.length === 0) return new Map();
    const rows = await this.scoped().where('id', 'in', valid).execute();
    return new Map(rows.map((r) => [r.id, postFromRow(r)]));
  }

  async firstOf(topicIds: string[]): Promise<Map<string, Post>> {
    const valid = [...new Set(topicIds.filter(isUuid))];
    if (valid.length === 0) return new Map();
    const rows = await this.scoped()
      .where('topic_id', 'in', valid)
      .where('position', '=', 1)
      .execute();
    return new Map(rows.map((r) => [r.topic_id, postFromRow(r)]));
  }

  async listByTopic(
    topicId: string,
    page: { after?: Keyset; limit: number; bytes?: PageBytes },
  ): Promise<Page<Post, Keyset>> {
    if (!isUuid(topicId)) return { items: [], next: null };
    if (page.bytes) {
      const from = page.after ? Number(page.after.key) : 0;
      const rows = await postsThatFit[page.bytes.of](
        this.db,
        this.communityId,
        topicId,
        from,
        page.limit + 1,
      );
      // The next `limit` posts that fit in the budget (one at least), and whether more follow.
      const fit = rows.filter(
        (r) =>
          Number(r.n) <= page.limit && (Number(r.n) === 1 || Number(r.running) <= page.bytes!.max),
      );
      const items = fit.map(postFromRow);
      const end = items[items.length - 1];
      const more = rows.length > 0 && Number(rows[0]!.window) > fit.length;
      return { items, next: more && end ? { key: end.position, id: end.id } : null };
    }
    let q = this.scoped().where('topic_id', '=', topicId);
    if (page.after) q = q.where('position', '>', Number(page.after.key));
    const rows = await q
      .orderBy('position')
      .limit(page.limit + 1)
      .execute();
    const items = rows.slice(0, page.limit).map(postFromRow);
    const last = items[items.length - 1];
    return {
      items,
      next: rows.length > page.limit && last ? { key: last.position, id: last.id } : null,
    };
  }

  async getFirst(topicId: string): Promise<Post | undefined> {
    if (!isUuid(topicId)) return undefined;
    const row = await this.scoped()
      .where('topic_id', '=', topicId)
      .where('position', '=', 1)
      .executeTakeFirst();
    return row && postFromRow(row);
  }

  async updateBody(
    id: string,
    body: string,
    editedAt?: string,
    rendered?: Rendered,
  ): Promise<Post | undefined> {
    if (!isUuid(id)) return undefined;
    const result = await this.db
      .updateTable('posts')
      .set({ body, ...renderedColumns(rendered), edited_at: editedAt ? toIso(editedAt) : nowIso() })
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.getById(id);
  }

  async saveRendered(id: string, body: string, rendered: Rendered): Promise<boolean> {
    if (!isUuid(id)) return false;
    // Only html and html_version change: the search triggers watch the body, not these.
    const result = await this.db
      .updateTable('posts')
      .set(renderedColumns(rendered))
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .where('body', '=', body)
      .where('html_version', '<', rendered.version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async listByAuthor(
    author: { kind: 'person' | 'agent'; id: string },
    page: { after?: Keyset; limit: number },
  ): Promise<Page<Post, Keyset>> {
    if (!isUuid(author.id)) return { items: [], next: null };
    const q = this.scoped()
      .where('author_kind', '=', author.kind)
      .where('author_id', '=', author.id);
    return newestFirst(q, page, postFromRow);
  }
}

/** The posts of a topic after one position up to another, in order: a page once its end is known. */
/**
 * A topic's next posts after a position (`limit` at most), each with its size (in Markdown or as
 * shown in HTML), its rank `n`, the running total of sizes `running` and how many the window holds:
 * one statement, whose rows past a page's byte budget the caller leaves (they are few: the
 * budget's posts and the first past it, at most `limit`).
 */
const postsThatFit = {
  body: fitting(sql<number>`octet_length(body)`),
  html: fitting(sql<number>`octet_length(coalesce(html, body))`),
};

function fitting(size: RawBuilder<number>) {
  return compiledOnce(
    (db: Kysely<Database>, communityId: string, topicId: string, after: number, limit: number) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('posts')
            .selectAll()
            .where('community_id', '=', communityId)
            .where('topic_id', '=', topicId)
            .where('position', '>', after)
            .orderBy('position')
            .limit(limit)
            .as('p'),
        )
        .selectAll('p')
        .select([
          sql<number>`row_number() over (order by p.position)`.as('n'),
          sql<number>`sum(${size}) over (order by p.position)`.as('running'),
          sql<number>`count(*) over ()`.as('window'),
        ])
        .orderBy('p.position'),
  );
}
