// A community's flags, hidden posts, sanctions and moderation settings (../moderation.ts). Every
// query carries the community's id; one flag per flagger per post is the table's unique rule.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  HiddenPostsTable,
  ModerationDatabase,
  PostFlagsTable,
  SanctionsTable,
} from '../moderation-schema.ts';
import type {
  FlagRecord,
  FlagStatus,
  HiddenPost,
  ModerationRepository,
  NewFlag,
  Sanction,
  SanctionMode,
} from '../moderation.ts';
import type { AuthorRef } from '../types.ts';
import { isUuid } from '../ids.ts';
import { nowIso, toIso, toIsoOrNull } from '../time.ts';
import { timeOrderedId } from './identity-rows.ts';

type Db = Kysely<ModerationDatabase>;
export const moderationDb = (db: Kysely<Database>): Db => db as unknown as Db;

function flagFromRow(r: Selectable<PostFlagsTable>): FlagRecord {
  return {
    id: r.id,
    postId: r.post_id,
    topicId: r.topic_id,
    flagger: { kind: r.flagger_kind as 'person' | 'agent', id: r.flagger_id, name: r.flagger_name },
    reason: r.reason,
    note: r.note,
    trusted: Number(r.trusted) === 1,
    status: r.status as FlagStatus,
    createdAt: toIso(r.created_at),
    decidedAt: toIsoOrNull(r.decided_at),
    decidedByName: r.decided_by_name,
  };
}

export function hiddenFromRow(r: Selectable<HiddenPostsTable>): HiddenPost {
  return {
    postId: r.post_id,
    topicId: r.topic_id,
    position: Number(r.position),
    cause: r.cause as HiddenPost['cause'],
    note: r.note,
    byName: r.by_name,
    hiddenAt: toIso(r.hidden_at),
  };
}

export function sanctionFromRow(r: Selectable<SanctionsTable>): Sanction {
  return {
    subject: { kind: r.subject_kind as 'person' | 'agent', id: r.subject_id, name: r.subject_name },
    mode: r.mode as SanctionMode,
    reason: r.reason,
    endsAt: toIso(r.ends_at),
    byName: r.by_name,
    createdAt: toIso(r.created_at),
  };
}

export class KyselyModeration implements ModerationRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  private flags() {
    return this.db
      .selectFrom('post_flags')
      .selectAll()
      .where('community_id', '=', this.communityId);
  }

  async addFlag(input: NewFlag): Promise<{ added: boolean; flag: FlagRecord }> {
    const createdAt = input.createdAt ? toIso(input.createdAt) : nowIso();
    const result = await this.db
      .insertInto('post_flags')
      .values({
        id: timeOrderedId(Date.parse(createdAt)),
        community_id: this.communityId,
        post_id: input.postId,
        topic_id: input.topicId,
        flagger_kind: input.flagger.kind,
        flagger_id: input.flagger.id,
        flagger_name: input.flagger.name,
        reason: input.reason,
        note: input.note,
        trusted: input.trusted ? 1 : 0,
        status: 'open',
        created_at: createdAt,
        decided_at: null,
        decided_by_name: null,
      })
      .onConflict((oc) =>
        oc.columns(['community_id', 'post_id', 'flagger_kind', 'flagger_id']).doNothing(),
      )
      .executeTakeFirst();
    const row = await this.flags()
      .where('post_id', '=', input.postId)
      .where('flagger_kind', '=', input.flagger.kind)
      .where('flagger_id', '=', input.flagger.id)
      .executeTakeFirstOrThrow();
    return { added: Number(result.numInsertedOrUpdatedRows ?? 0) > 0, flag: flagFromRow(row) };
  }

  async flagsOf(postId: string, status?: FlagStatus): Promise<FlagRecord[]> {
    if (!isUuid(postId)) return [];
    let q = this.flags().where('post_id', '=', postId);
    if (status) q = q.where('status', '=', status);
    return (await q.orderBy('created_at').orderBy('id').execute()).map(flagFromRow);
  }

  async openFlagCount(postId: string, trustedOnly: boolean): Promise<number> {
    if (!isUuid(postId)) return 0;
    let q = this.db
      .selectFrom('post_flags')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', postId)
      .where('status', '=', 'open');
    if (trustedOnly) q = q.where('trusted', '=', 1);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async openFlags(limit: number): Promise<FlagRecord[]> {
    const rows = await this.flags()
      .where('status', '=', 'open')
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(flagFromRow);
  }

  async settleFlags(
    postId: string,
    status: 'dismissed' | 'upheld',
    byName: string,
    at = nowIso(),
  ): Promise<number> {
    if (!isUuid(postId)) return 0;
    const result = await this.db
      .updateTable('post_flags')
      .set({ status, decided_at: toIso(at), decided_by_name: byName })
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', postId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async upheldAgainst(author: AuthorRef, since: string): Promise<number> {
    if (!author.id || !isUuid(author.id)) return 0;
    const row = await this.db
      .selectFrom('post_flags as f')
      .innerJoin('posts as p', (j) =>
        j.onRef('p.id', '=', 'f.post_id').onRef('p.community_id', '=', 'f.community_id'),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('f.community_id', '=', this.communityId)
      .where('f.status', '=', 'upheld')
      .where('f.decided_at', '>=', toIso(since))
      .where('p.author_kind', '=', author.kind)
      .where('p.author_id', '=', author.id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async acceptedAnswersOf(author: AuthorRef): Promise<number> {
    if (!author.id || !isUuid(author.id)) return 0;
    const row = await this.db
      .selectFrom('topics as t')
      .innerJoin('posts as p', (j) =>
        j.onRef('p.id', '=', 't.solution_post_id').onRef('p.community_id', '=', 't.community_id'),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('t.community_id', '=', this.communityId)
      .where('p.author_kind', '=', author.kind)
      .where('p.author_id', '=', author.id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async postsBy(author: AuthorRef): Promise<number> {
    if (!author.id || !isUuid(author.id)) return 0;
    const row = await this.db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('community_id', '=', this.communityId)
      .where('author_kind', '=', author.kind)
      .where('author_id', '=', author.id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async postsSince(
    author: AuthorRef,
    since: string,
  ): Promise<{ count: number; oldestAt: string | null }> {
    if (!author.id || !isUuid(author.id)) return { count: 0, oldestAt: null };
    const row = await this.db
      .selectFrom('posts')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('community_id', '=', this.communityId)
      .where('author_kind', '=', author.kind)
      .where('author_id', '=', author.id)
      .where('created_at', '>=', toIso(since))
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), oldestAt: row.oldest ? toIso(row.oldest) : null };
  }

  async hide(input: Omit<HiddenPost, 'hiddenAt'> & { hiddenAt?: string }): Promise<boolean> {
    const result = await this.db
      .insertInto('hidden_posts')
      .values({
        community_id: this.communityId,
        post_id: input.postId,
        topic_id: input.topicId,
        position: input.position,
        cause: input.cause,
        note: input.note,
        by_name: input.byName,
        hidden_at: input.hiddenAt ? toIso(input.hiddenAt) : nowIso(),
      })
      .onConflict((oc) => oc.columns(['community_id', 'post_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async unhide(postId: string): Promise<boolean> {
    if (!isUuid(postId)) return false;
    const result = await this.db
      .deleteFrom('hidden_posts')
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', postId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async hiddenInTopic(topicId: string): Promise<HiddenPost[]> {
    return this.hiddenInTopics([topicId]);
  }

  async hiddenInTopics(topicIds: string[]): Promise<HiddenPost[]> {
    const ids = [...new Set(topicIds.filter(isUuid))];
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('hidden_posts')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('topic_id', 'in', ids)
      .execute();
    return rows.map(hiddenFromRow);
  }

  async hiddenAmong(postIds: string[]): Promise<HiddenPost[]> {
    const ids = [...new Set(postIds.filter(isUuid))];
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('hidden_posts')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('post_id', 'in', ids)
      .execute();
    return rows.map(hiddenFromRow);
  }

  async setSanction(s: Sanction): Promise<void> {
    const row = {
      community_id: this.communityId,
      subject_kind: s.subject.kind,
      subject_id: s.subject.id,
      subject_name: s.subject.name,
      mode: s.mode,
      reason: s.reason,
      ends_at: toIso(s.endsAt),
      by_name: s.byName,
      created_at: toIso(s.createdAt),
    };
    await this.db
      .insertInto('sanctions')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['community_id', 'subject_kind', 'subject_id']).doUpdateSet({
          subject_name: row.subject_name,
          mode: row.mode,
          reason: row.reason,
          ends_at: row.ends_at,
          by_name: row.by_name,
          created_at: row.created_at,
        }),
      )
      .execute();
  }

  async getSanction(kind: 'person' | 'agent', id: string): Promise<Sanction | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db
      .selectFrom('sanctions')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('subject_kind', '=', kind)
      .where('subject_id', '=', id)
      .executeTakeFirst();
    return row && sanctionFromRow(row);
  }

  async clearSanction(kind: 'person' | 'agent', id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .deleteFrom('sanctions')
      .where('community_id', '=', this.communityId)
      .where('subject_kind', '=', kind)
      .where('subject_id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async listSanctions(now: string): Promise<Sanction[]> {
    const rows = await this.db
      .selectFrom('sanctions')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('ends_at', '>', toIso(now))
      .orderBy('ends_at')
      .execute();
    return rows.map(sanctionFromRow);
  }

  async noteQueued(approvalId: string, reason: string): Promise<void> {
    await this.db
      .insertInto('queued_reasons')
      .values({ community_id: this.communityId, approval_id: approvalId, reason })
      .onConflict((oc) => oc.columns(['community_id', 'approval_id']).doNothing())
      .execute();
  }

  async queuedReasons(approvalIds: string[]): Promise<Map<string, string>> {
    const ids = [...new Set(approvalIds.filter(isUuid))];
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('queued_reasons')
      .select(['approval_id', 'reason'])
      .where('community_id', '=', this.communityId)
      .where('approval_id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.approval_id, r.reason]));
  }

  async getSettings(): Promise<unknown> {
    const row = await this.db
      .selectFrom('moderation_settings')
      .select('settings')
      .where('community_id', '=', this.communityId)
      .executeTakeFirst();
    return row ? (JSON.parse(row.settings) as unknown) : undefined;
  }

  async setSettings(settings: unknown): Promise<void> {
    const text = JSON.stringify(settings);
    const at = nowIso();
    await this.db
      .insertInto('moderation_settings')
      .values({ community_id: this.communityId, settings: text, updated_at: at })
      .onConflict((oc) =>
        oc.column('community_id').doUpdateSet({ settings: text, updated_at: sql`${at}` }),
      )
      .execute();
  }
}
