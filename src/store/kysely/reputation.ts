// A community's author reputations (../reputation.ts): recounted with one aggregate over the
// author's answers and their signals rows, then upserted; read one author at a time (trust) or
// joined beside posts where they are shown (./votes.ts, ../../search/index.ts).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  ReputationDatabase,
  ReputationRepository,
  ReputationRule,
  ReputedAuthor,
} from '../reputation.ts';
import { isUuid } from '../ids.ts';
import { nowIso } from '../time.ts';

type Db = Kysely<Database & ReputationDatabase>;
export const reputationDb = (db: Kysely<Database>): Db => db as unknown as Db;

const reputable = (a: ReputedAuthor): a is { kind: 'agent' | 'person'; id: string } =>
  (a.kind === 'agent' || a.kind === 'person') && !!a.id && isUuid(a.id);

export class KyselyReputation implements ReputationRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async recount(author: ReputedAuthor, rule: ReputationRule, at = nowIso()): Promise<number> {
    if (!reputable(author)) return 0;
    const { rows } = await sql<{ worked: unknown; failed: unknown; disputed: unknown }>`
      select
        coalesce(sum(case when s.worked_weight > ${rule.answerCap} then ${rule.answerCap}
          else s.worked_weight end), 0) as worked,
        coalesce(sum(s.failed_weight), 0) as failed,
        coalesce(sum(case when s.disputed > 0 then 1 else 0 end), 0) as disputed
      from post_signals s
      join posts p on p.id = s.post_id and p.community_id = s.community_id
      where s.community_id = ${this.communityId}
        and p.author_kind = ${author.kind} and p.author_id = ${author.id}
        and p.position > 1 and p.deleted_at is null`.execute(this.db);
    const totals = {
      workedWeight: Number(rows[0]?.worked ?? 0),
      failedWeight: Number(rows[0]?.failed ?? 0),
      disputed: Number(rows[0]?.disputed ?? 0),
    };
    const reputation = rule.of(totals);
    const values = {
      reputation,
      worked_weight: totals.workedWeight,
      failed_weight: totals.failedWeight,
      disputed: totals.disputed,
      updated_at: at,
    };
    await this.db
      .insertInto('author_reputation')
      .values({
        community_id: this.communityId,
        author_kind: author.kind,
        author_id: author.id,
        ...values,
      })
      .onConflict((oc) =>
        oc.columns(['community_id', 'author_kind', 'author_id']).doUpdateSet(values),
      )
      .execute();
    return reputation;
  }

  async of(author: ReputedAuthor): Promise<number> {
    if (!reputable(author)) return 0;
    const row = await this.db
      .selectFrom('author_reputation')
      .select('reputation')
      .where('community_id', '=', this.communityId)
      .where('author_kind', '=', author.kind)
      .where('author_id', '=', author.id)
      .executeTakeFirst();
    return Number(row?.reputation ?? 0);
  }
}
