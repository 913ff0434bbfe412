// The versions of a community's edited posts, numbered per post. Every query carries the
// community's id; a version is added only to a post of this community.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  NewPostRevision,
  PostRevision,
  PostRevisionDatabase,
  PostRevisionRepository,
} from '../post-revisions.ts';
import { MissingRow, uniquely } from '../errors.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { authorColumns, authorFromRow } from './rows.ts';

type Db = Kysely<PostRevisionDatabase & Pick<Database, 'posts'>>;
export const postRevisionDb = (db: Kysely<Database>): Db => db as unknown as Db;

function fromRow(row: Selectable<PostRevisionDatabase['post_revisions']>): PostRevision {
  return {
    id: row.id,
    postId: row.post_id,
    revision: Number(row.revision),
    title: row.title,
    body: row.body,
    author: authorFromRow(row),
    createdAt: toIso(row.created_at),
  };
}

export class KyselyPostRevisions implements PostRevisionRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async add(postId: string, input: NewPostRevision): Promise<PostRevision> {
    const post = isUuid(postId)
      ? await this.db
          .selectFrom('posts')
          .select('id')
          .where('community_id', '=', this.communityId)
          .where('id', '=', postId)
          .executeTakeFirst()
      : undefined;
    if (!post) throw new MissingRow('post');
    const latest = await this.db
      .selectFrom('post_revisions')
      .select((eb) => eb.fn.max('revision').as('max'))
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', postId)
      .executeTakeFirst();
    const row = {
      id: newId(),
      community_id: this.communityId,
      post_id: postId,
      revision: Number(latest?.max ?? 0) + 1,
      title: input.title,
      body: input.body,
      ...authorColumns(input.author),
      created_at: input.createdAt ? toIso(input.createdAt) : nowIso(),
    };
    await uniquely('post revision', () =>
      this.db.insertInto('post_revisions').values(row).execute(),
    );
    return fromRow(row);
  }

  async list(postId: string): Promise<PostRevision[]> {
    if (!isUuid(postId)) return [];
    const rows = await this.db
      .selectFrom('post_revisions')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', postId)
      .orderBy('revision')
      .execute();
    return rows.map(fromRow);
  }
}
