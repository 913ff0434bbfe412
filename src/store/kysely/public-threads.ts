// Reads over the threads of every public community at once, for the network (a search's page may
// hold topics of many communities): each query joins the topic's community and keeps public ones
// only, so a private community's rows are never read here, whatever ids a caller passes.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.ts';
import type { PublicThreads, Thread } from '../repositories.ts';
import type { HiddenPost } from '../moderation.ts';
import type { PostSignals, PostSignalsTable, VotesDatabase } from '../votes.ts';
import type { ModerationDatabase } from '../moderation-schema.ts';
import { isUuid } from '../ids.ts';
import { hiddenFromRow } from './moderation.ts';
import { summedSignals } from './signal-reads.ts';
import { signalsOf } from './votes.ts';

/** The tables these reads join: a thread's rows and its community. */
type Db = Kysely<Database & VotesDatabase & ModerationDatabase>;

const uuids = (ids: string[]) => [...new Set(ids.filter(isUuid))];

/** The communities and the topics of these threads, each once (a thread is in its community's index range). */
function keys(threads: readonly Thread[]): { communities: string[]; topics: string[] } {
  return {
    communities: uuids(threads.map((t) => t.communityId)),
    topics: uuids(threads.map((t) => t.topicId)),
  };
}

export class KyselyPublicThreads implements PublicThreads {
  private readonly db: Db;

  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Db;
  }

  async signals(threads: readonly Thread[]): Promise<Map<string, PostSignals>> {
    const { communities, topics } = keys(threads);
    if (!topics.length) return new Map();
    const rows = await this.db
      .selectFrom('post_signals as s')
      .innerJoin('communities as c', 'c.id', 's.community_id')
      .select((eb) => ['s.topic_id', ...summedSignals(eb)])
      .where('c.visibility', '=', 'public')
      .where('s.community_id', 'in', communities)
      .where('s.topic_id', 'in', topics)
      .groupBy('s.topic_id')
      .execute();
    return new Map(
      rows.map((r) => [
        r.topic_id,
        signalsOf({
          ...r,
          post_id: '',
          community_id: '',
          environment: null,
          dispute_cleared_at: null,
          worked_in: null,
        } as Selectable<PostSignalsTable>),
      ]),
    );
  }

  async hidden(threads: readonly Thread[]): Promise<HiddenPost[]> {
    const { communities, topics } = keys(threads);
    if (topics.length === 0) return [];
    const rows = await this.db
      .selectFrom('hidden_posts as h')
      .innerJoin('communities as c', 'c.id', 'h.community_id')
      .selectAll('h')
      .where('c.visibility', '=', 'public')
      .where('h.community_id', 'in', communities)
      .where('h.topic_id', 'in', topics)
      .execute();
    return rows.map(hiddenFromRow);
  }
}
