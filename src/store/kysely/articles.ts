// Revisions of a community's knowledge-base articles, numbered per article.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { ArticleRevisionRepository } from '../repositories.ts';
import type { ArticleRevision, NewRevision, Rendered } from '../types.ts';
import { isUuid, newId } from '../ids.ts';
import { nowIso, toIso } from '../time.ts';
import { MissingRow, uniquely } from '../errors.ts';
import { authorColumns, renderedColumns, revisionFromRow } from './rows.ts';

export class KyselyArticleRevisions implements ArticleRevisionRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly communityId: string,
  ) {}

  async add(input: NewRevision): Promise<ArticleRevision> {
    if (!isUuid(input.topicId)) throw new MissingRow('article');
    const latest = await this.db
      .selectFrom('article_revisions')
      .select((eb) => eb.fn.max('revision').as('max'))
      .where('community_id', '=', this.communityId)
      .where('topic_id', '=', input.topicId)
      .executeTakeFirst();
    const row = {
      id: newId(),
      community_id: this.communityId,
      topic_id: input.topicId,
      revision: Number(latest?.max ?? 0) + 1,
      title: input.title,
      body: input.body,
      ...renderedColumns(input.rendered),
      ...authorColumns(input.author),
      created_at: input.createdAt ? toIso(input.createdAt) : nowIso(),
    };
    // The composite foreign key (community_id, topic_id) refuses a topic of another community.
    try {
      await uniquely('article revision', () =>
        this.db.insertInto('article_revisions').values(row).execute(),
      );
    } catch (err) {
      if (isForeignKeyViolation(err)) throw new MissingRow('article');
      throw err;
    }
    return revisionFromRow(row);
  }

  async list(topicId: string): Promise<ArticleRevision[]> {
    if (!isUuid(topicId)) return [];
    const rows = await this.db
      .selectFrom('article_revisions')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('topic_id', '=', topicId)
      .orderBy('revision')
      .execute();
    return rows.map(revisionFromRow);
  }

  async saveRendered(id: string, rendered: Rendered): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .updateTable('article_revisions')
      .set(renderedColumns(rendered))
      .where('community_id', '=', this.communityId)
      .where('id', '=', id)
      .where('html_version', '<', rendered.version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
