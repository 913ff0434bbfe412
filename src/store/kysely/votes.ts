// A community's votes, outcome reports and post signals (../votes.ts). Each change takes the post's
// signals row first (created at zero when missing; on PostgreSQL the upsert locks it until the
// transaction ends, SQLite's write transactions are serial), then reads the vote or report it
// replaces and moves the counters by the difference: concurrent voters count exactly. Signals are
// read with their post's author's reputation (../reputation.ts) in the same statement.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  ConfidenceRule,
  Environment,
  OutcomeInput,
  OutcomeRecord,
  PostSignals,
  Reporter,
  VoteRepository,
  VotesDatabase,
} from '../votes.ts';
import { isUuid } from '../ids.ts';
import {
  signalsOfPosts,
  topicSignalRows,
  type SignalsDb,
  type SignalsRow,
} from './signal-reads.ts';
import { parsed, weighOutcomes } from './confidence.ts';
import { nowIso, toIso, toIsoOrNull } from '../time.ts';

type Db = SignalsDb;
export const votesDb = (db: Kysely<Database>): Db => db as unknown as Db;

const ZERO = {
  score: 0,
  up_count: 0,
  down_count: 0,
  worked_agents: 0,
  worked_people: 0,
  failed_count: 0,
  last_worked_at: null,
};

const uuids = (ids: string[]) => [...new Set(ids.filter(isUuid))];

export function signalsOf(r: SignalsRow): PostSignals {
  const reputation = r.author_reputation;
  return {
    score: Number(r.score),
    ups: Number(r.up_count),
    downs: Number(r.down_count),
    workedAgents: Number(r.worked_agents),
    workedPeople: Number(r.worked_people),
    failed: Number(r.failed_count),
    lastWorkedAt: toIsoOrNull(r.last_worked_at),
    workedWeight: Number(r.worked_weight ?? 0),
    failedWeight: Number(r.failed_weight ?? 0),
    disputed: Number(r.disputed ?? 0),
    workedIn: parsed<Environment[]>(r.worked_in, []),
    environment: parsed<Environment | null>(r.environment, null),
    citedBy: Number(r.cited_by ?? 0),
    authorReputation: reputation === null || reputation === undefined ? null : Number(reputation),
  };
}

export class KyselyVotes implements VoteRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  /** The post's signals row, created at zero if missing, and locked by the no-op update. */
  private async lock(post: { id: string; topicId: string }): Promise<void> {
    await this.db
      .insertInto('post_signals')
      .values({
        post_id: post.id,
        community_id: this.communityId,
        topic_id: post.topicId,
        ...ZERO,
      })
      .onConflict((oc) =>
        oc.column('post_id').doUpdateSet((eb) => ({ score: eb.ref('post_signals.score') })),
      )
      .execute();
  }

  private async row(postId: string): Promise<PostSignals> {
    const r = await this.db
      .selectFrom('post_signals')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', postId)
      .executeTakeFirstOrThrow();
    return signalsOf(r);
  }

  async setVote(
    post: { id: string; topicId: string },
    personId: string,
    value: -1 | 0 | 1,
    at = nowIso(),
  ): Promise<{ previous: number; signals: PostSignals }> {
    await this.lock(post);
    const where = this.db
      .selectFrom('post_votes')
      .select('value')
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', post.id)
      .where('person_id', '=', personId);
    const previous = Number((await where.executeTakeFirst())?.value ?? 0);
    if (previous === value) return { previous, signals: await this.row(post.id) };
    if (value === 0) {
      await this.db
        .deleteFrom('post_votes')
        .where('community_id', '=', this.communityId)
        .where('post_id', '=', post.id)
        .where('person_id', '=', personId)
        .execute();
    } else {
      await this.db
        .insertInto('post_votes')
        .values({
          community_id: this.communityId,
          post_id: post.id,
          topic_id: post.topicId,
          person_id: personId,
          value,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc.columns(['post_id', 'person_id']).doUpdateSet({ value, updated_at: at }),
        )
        .execute();
    }
    const up = Number(value === 1) - Number(previous === 1);
    const down = Number(value === -1) - Number(previous === -1);
    await this.db
      .updateTable('post_signals')
      .set((eb) => ({
        score: eb('score', '+', value - previous),
        up_count: eb('up_count', '+', up),
        down_count: eb('down_count', '+', down),
      }))
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', post.id)
      .execute();
    return { previous, signals: await this.row(post.id) };
  }

  async setOutcome(
    post: { id: string; topicId: string },
    reporter: Reporter,
    outcome: OutcomeInput,
    at = nowIso(),
  ): Promise<{ previous: OutcomeRecord | null; signals: PostSignals }> {
    await this.lock(post);
    const old = await this.db
      .selectFrom('post_outcomes')
      .selectAll()
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', post.id)
      .where('actor_kind', '=', reporter.kind)
      .where('actor_id', '=', reporter.id)
      .executeTakeFirst();
    const previous: OutcomeRecord | null = old
      ? {
          postId: old.post_id,
          reporter: { kind: reporter.kind, id: old.actor_id, name: old.actor_name },
          worked: Number(old.worked) === 1,
          note: old.note,
          createdAt: toIso(old.created_at),
          updatedAt: toIso(old.updated_at),
        }
      : null;
    const worked = outcome.worked ? 1 : 0;
    const weighed = {
      environment: outcome.environment ? JSON.stringify(outcome.environment) : null,
      weight: outcome.weight ?? 1,
      trusted: outcome.trusted === false ? 0 : 1,
      owner: outcome.owner ?? `${reporter.kind}:${reporter.id}`,
    };
    await this.db
      .insertInto('post_outcomes')
      .values({
        community_id: this.communityId,
        post_id: post.id,
        topic_id: post.topicId,
        actor_kind: reporter.kind,
        actor_id: reporter.id,
        actor_name: reporter.name,
        worked,
        note: outcome.note,
        created_at: at,
        updated_at: at,
        ...weighed,
      })
      .onConflict((oc) =>
        oc.columns(['post_id', 'actor_kind', 'actor_id']).doUpdateSet({
          worked,
          note: outcome.note,
          actor_name: reporter.name,
          updated_at: at,
          ...weighed,
        }),
      )
      .execute();
    const was = previous ? (previous.worked ? 1 : 0) : null;
    const byAgent = reporter.kind === 'agent';
    const workedDelta = worked - (was === 1 ? 1 : 0);
    const failedDelta = (worked ? 0 : 1) - (was === 0 ? 1 : 0);
    await this.db
      .updateTable('post_signals')
      .set((eb) => ({
        worked_agents: eb('worked_agents', '+', byAgent ? workedDelta : 0),
        worked_people: eb('worked_people', '+', byAgent ? 0 : workedDelta),
        failed_count: eb('failed_count', '+', failedDelta),
        last_worked_at: eb
          .selectFrom('post_outcomes')
          .select((s) => s.fn.max('updated_at').as('at'))
          .where('community_id', '=', this.communityId)
          .where('post_id', '=', post.id)
          .where('worked', '=', 1),
        ...(outcome.weigh
          ? {}
          : {
              worked_weight: eb('worked_weight', '+', workedDelta),
              failed_weight: eb('failed_weight', '+', failedDelta),
            }),
      }))
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', post.id)
      .execute();
    if (outcome.weigh)
      await weighOutcomes(
        this.db as unknown as Kysely<VotesDatabase>,
        this.communityId,
        post.id,
        outcome.weigh,
      );
    return { previous, signals: await this.row(post.id) };
  }

  async clearDispute(
    post: { id: string; topicId: string },
    rule: ConfidenceRule,
    at = nowIso(),
  ): Promise<PostSignals> {
    await this.lock(post);
    await this.db
      .updateTable('post_signals')
      .set({ dispute_cleared_at: at })
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', post.id)
      .execute();
    await weighOutcomes(
      this.db as unknown as Kysely<VotesDatabase>,
      this.communityId,
      post.id,
      rule,
    );
    return this.row(post.id);
  }

  async setEnvironment(post: { id: string; topicId: string }, environment: Environment) {
    await this.lock(post);
    await this.db
      .updateTable('post_signals')
      .set({ environment: JSON.stringify(environment) })
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', post.id)
      .execute();
  }

  async setCited(post: { id: string; topicId: string }, n: number): Promise<void> {
    await this.lock(post);
    await this.db
      .updateTable('post_signals')
      .set({ cited_by: n })
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', post.id)
      .execute();
  }

  async signals(postIds: string[]): Promise<Map<string, PostSignals>> {
    const ids = uuids(postIds);
    if (!ids.length) return new Map();
    const rows = await signalsOfPosts(this.db, this.communityId, ...ids);
    return new Map(rows.map((r) => [r.pid, signalsOf(r as SignalsRow)]));
  }

  async scoreReceived(author: { kind: string; id: string | null }): Promise<number> {
    if (!author.id || !isUuid(author.id)) return 0;
    const { rows } = await sql<{ n: number | string | null }>`
      select coalesce(sum(s.score), 0) as n
      from post_signals s
      join posts p on p.id = s.post_id and p.community_id = s.community_id
      where s.community_id = ${this.communityId}
        and p.author_kind = ${author.kind} and p.author_id = ${author.id}`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  async topicSignals(topicIds: string[]): Promise<Map<string, PostSignals>> {
    const ids = uuids(topicIds);
    if (!ids.length) return new Map();
    const rows = await topicSignalRows(this.db, this.communityId, ids);
    return new Map(rows.map((r) => [r.topicId, signalsOf(r.row)]));
  }

  async votesOf(personId: string, postIds: string[]): Promise<Map<string, number>> {
    const ids = uuids(postIds);
    if (!ids.length || !isUuid(personId)) return new Map();
    const rows = await this.db
      .selectFrom('post_votes')
      .select(['post_id', 'value'])
      .where('community_id', '=', this.communityId)
      .where('person_id', '=', personId)
      .where('post_id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.post_id, Number(r.value)]));
  }

  async outcomesOf(
    reporter: Omit<Reporter, 'name'>,
    postIds: string[],
  ): Promise<Map<string, boolean>> {
    const ids = uuids(postIds);
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('post_outcomes')
      .select(['post_id', 'worked'])
      .where('community_id', '=', this.communityId)
      .where('actor_kind', '=', reporter.kind)
      .where('actor_id', '=', reporter.id)
      .where('post_id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.post_id, Number(r.worked) === 1]));
  }

  async downvotes(): Promise<boolean> {
    const r = await this.db
      .selectFrom('vote_settings')
      .select('downvotes')
      .where('community_id', '=', this.communityId)
      .executeTakeFirst();
    return Number(r?.downvotes ?? 0) === 1;
  }

  async setDownvotes(on: boolean, at = nowIso()): Promise<void> {
    const downvotes = on ? 1 : 0;
    await this.db
      .insertInto('vote_settings')
      .values({ community_id: this.communityId, downvotes, updated_at: at })
      .onConflict((oc) => oc.column('community_id').doUpdateSet({ downvotes, updated_at: at }))
      .execute();
  }
}
