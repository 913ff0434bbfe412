// A community's bookmarks: one row per (person, topic or post), newest first by (created_at, id).
// Every query carries the community's id and the person's; a malformed id matches nothing.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  Bookmark,
  BookmarkDatabase,
  BookmarkRepository,
  BookmarkTarget,
} from '../bookmarks.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import type { Keyset, Page } from '../types.ts';
import { newestFirst } from './newest-first.ts';

type Db = Kysely<BookmarkDatabase>;
export const bookmarkDb = (db: Kysely<Database>): Db => db as unknown as Db;

function fromRow(row: Selectable<BookmarkDatabase['bookmarks']>): Bookmark {
  return {
    id: row.id,
    personId: row.person_id,
    target: row.post_id ? { kind: 'post', id: row.post_id } : { kind: 'topic', id: row.topic_id! },
    createdAt: toIso(row.created_at),
  };
}

export class KyselyBookmarks implements BookmarkRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  private async one(personId: string, target: BookmarkTarget) {
    return this.db
      .selectFrom('bookmarks')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('target_id', '=', target.id)
      .executeTakeFirst();
  }

  async add(
    personId: string,
    target: BookmarkTarget,
  ): Promise<{ bookmark: Bookmark; created: boolean }> {
    const id = newId();
    await this.db
      .insertInto('bookmarks')
      .values({
        id,
        community_id: this.communityId,
        person_id: personId,
        topic_id: target.kind === 'topic' ? target.id : null,
        post_id: target.kind === 'post' ? target.id : null,
        target_id: target.id,
        created_at: nowIso(),
      })
      .onConflict((oc) => oc.columns(['community_id', 'person_id', 'target_id']).doNothing())
      .execute();
    const row = (await this.one(personId, target))!;
    return { bookmark: fromRow(row), created: row.id === id };
  }

  async remove(personId: string, target: BookmarkTarget): Promise<boolean> {
    if (!isUuid(personId) || !isUuid(target.id)) return false;
    const result = await this.db
      .deleteFrom('bookmarks')
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('target_id', '=', target.id)
      .where(target.kind === 'post' ? 'post_id' : 'topic_id', '=', target.id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async among(personId: string, ids: string[]): Promise<Bookmark[]> {
    const wanted = ids.filter(isUuid);
    if (!isUuid(personId) || wanted.length === 0) return [];
    const rows = await this.db
      .selectFrom('bookmarks')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('target_id', 'in', wanted)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(fromRow);
  }

  async list(
    personId: string,
    page: { after?: Keyset; limit: number },
  ): Promise<Page<Bookmark, Keyset>> {
    if (!isUuid(personId)) return { items: [], next: null };
    const q = this.db
      .selectFrom('bookmarks')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId);
    return newestFirst(q, page, fromRow);
  }
}
