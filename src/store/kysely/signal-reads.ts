// The reads of post signals beside their authors' reputations (../reputation.ts), each one
// statement: a page's posts (every page of a topic reads it) and a search head's threads (summed
// per topic, with the best reputation among each thread's answers' authors).
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type { ReputationDatabase } from '../reputation.ts';
import type { PostSignalsTable, VotesDatabase } from '../votes.ts';
import { compiledOnce } from './compiled-once.ts';

/** The tables the votes repository reads: its own, the posts, the authors' reputations. */
export type SignalsDb = Kysely<VotesDatabase & ReputationDatabase & Pick<Database, 'posts'>>;
type Db = SignalsDb;

/** A signals row, with its author's reputation where it was read beside it. */
export type SignalsRow = Selectable<PostSignalsTable> & { author_reputation?: unknown };

/** A thread's signals summed over its posts (the post_signals rows joined as `s`), one column each. */
export function summedSignals(eb: ExpressionBuilder<{ s: PostSignalsTable }, 's'>) {
  return [
    eb.fn.sum<number>('s.score').as('score'),
    eb.fn.sum<number>('s.up_count').as('up_count'),
    eb.fn.sum<number>('s.down_count').as('down_count'),
    eb.fn.sum<number>('s.worked_agents').as('worked_agents'),
    eb.fn.sum<number>('s.worked_people').as('worked_people'),
    eb.fn.sum<number>('s.failed_count').as('failed_count'),
    eb.fn.max('s.last_worked_at').as('last_worked_at'),
    eb.fn.sum<number>('s.worked_weight').as('worked_weight'),
    eb.fn.sum<number>('s.failed_weight').as('failed_weight'),
    eb.fn.sum<number>('s.disputed').as('disputed'),
    eb.fn.sum<number>('s.cited_by').as('cited_by'),
  ] as const;
}

/** Each topic's summed signals row (with author_reputation), for the topics with any. */
export async function topicSignalRows(
  db: Db,
  communityId: string,
  ids: string[],
): Promise<{ topicId: string; row: SignalsRow }[]> {
  const rows = await db
    .selectFrom('posts as p')
    .leftJoin('post_signals as s', 's.post_id', 'p.id')
    .leftJoin('author_reputation as r', (j) =>
      j
        .onRef('r.community_id', '=', 'p.community_id')
        .onRef('r.author_kind', '=', 'p.author_kind')
        .onRef('r.author_id', '=', 'p.author_id'),
    )
    .select((eb) => [
      'p.topic_id',
      ...summedSignals(eb),
      eb.fn
        .max(eb.case().when('p.position', '>', 1).then(eb.ref('r.reputation')).end())
        .as('author_reputation'),
      eb.fn.count('s.post_id').as('with_signals'),
    ])
    .where('p.community_id', '=', communityId)
    .where('p.topic_id', 'in', ids)
    .groupBy('p.topic_id')
    .execute();
  return rows
    .filter((r) => Number(r.with_signals) > 0 || r.author_reputation !== null)
    .map((r) => ({
      topicId: r.topic_id,
      row: { ...r, post_id: '', community_id: communityId } as unknown as SignalsRow,
    }));
}

/**
 * The signals of some posts and their authors' reputations (a page of a topic: read with every
 * page, compiled once per count): the posts with a signals row or a reputed author.
 */
export const signalsOfPosts = compiledOnce((db: Db, communityId: string, ...postIds: string[]) =>
  db
    .selectFrom('posts as p')
    .leftJoin('post_signals as s', 's.post_id', 'p.id')
    .leftJoin('author_reputation as r', (j) =>
      j
        .onRef('r.community_id', '=', 'p.community_id')
        .onRef('r.author_kind', '=', 'p.author_kind')
        .onRef('r.author_id', '=', 'p.author_id'),
    )
    .selectAll('s')
    .select(['p.id as pid', 'r.reputation as author_reputation'])
    .where('p.community_id', '=', communityId)
    .where('p.id', 'in', postIds)
    .where((eb) => eb.or([eb('s.post_id', 'is not', null), eb('r.author_id', 'is not', null)])),
);
