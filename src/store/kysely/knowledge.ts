// A community's environments, sources and agent owners (../knowledge.ts). An environment is rows of
// name → version, replaced whole when its reporter reports again; a version prefix is matched with
// LIKE (its wildcards escaped), on the (community, name, version) index.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type {
  CitablePost,
  EnvironmentPrefix,
  KnowledgeDatabase,
  KnowledgeRepository,
} from '../knowledge.ts';
import type { Environment } from '../votes.ts';
import { isUuid } from '../ids.ts';
import { nowIso } from '../time.ts';

type Db = Kysely<Database & KnowledgeDatabase>;
export const knowledgeDb = (db: Kysely<Database>): Db => db as unknown as Db;

const uuids = (ids: string[]) => [...new Set(ids.filter(isUuid))];

/** A LIKE pattern matching strings that start with `prefix` (escape character '\'). */
export function startsWith(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export class KyselyKnowledge implements KnowledgeRepository {
  constructor(
    private readonly db: Db,
    private readonly communityId: string,
  ) {}

  async setEnvironment(
    post: { id: string; topicId: string },
    reporter: string,
    worked: boolean | null,
    environment: Environment | null,
  ): Promise<void> {
    await this.db
      .deleteFrom('post_environments')
      .where('community_id', '=', this.communityId)
      .where('post_id', '=', post.id)
      .where('reporter', '=', reporter)
      .execute();
    const pairs = Object.entries(environment ?? {});
    if (!pairs.length) return;
    await this.db
      .insertInto('post_environments')
      .values(
        pairs.map(([name, version]) => ({
          community_id: this.communityId,
          post_id: post.id,
          topic_id: post.topicId,
          reporter,
          worked: worked === null ? null : worked ? 1 : 0,
          name,
          version,
        })),
      )
      .execute();
  }

  async workedIn(topicIds: string[], prefix: EnvironmentPrefix): Promise<Set<string>> {
    const ids = uuids(topicIds);
    const pairs = Object.entries(prefix);
    if (!ids.length || !pairs.length) return new Set();
    // Every pair must match one report (or the answer's own environment): grouped by its source.
    const rows = await this.db
      .selectFrom('post_environments as e')
      .innerJoin('posts as p', 'p.id', 'e.post_id')
      .select('e.topic_id')
      .where('e.community_id', '=', this.communityId)
      .where('e.topic_id', 'in', ids)
      .where('p.position', '>', 1)
      .where((eb) => eb.or([eb('e.worked', '=', 1), eb('e.worked', 'is', null)]))
      .where((eb) =>
        eb.or(
          pairs.map(([name, version]) =>
            eb.and([
              eb('e.name', '=', name),
              sql<boolean>`e.version like ${startsWith(version)} escape '\\'`,
            ]),
          ),
        ),
      )
      .groupBy(['e.topic_id', 'e.post_id', 'e.reporter'])
      .having((eb) => eb.fn.count('e.name'), '>=', pairs.length)
      .execute();
    return new Set(rows.map((r) => r.topic_id));
  }

  async citable(postIds: string[]): Promise<Map<string, CitablePost>> {
    const ids = uuids(postIds);
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectFrom('posts')
      .select(['id', 'topic_id', 'author_kind', 'author_id'])
      .where('community_id', '=', this.communityId)
      .where('id', 'in', ids)
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        { id: r.id, topicId: r.topic_id, author: `${r.author_kind}:${r.author_id ?? ''}` },
      ]),
    );
  }

  async cite(
    citing: string,
    citer: string,
    posts: CitablePost[],
    at = nowIso(),
  ): Promise<Map<string, number>> {
    if (!posts.length) return new Map();
    await this.db
      .insertInto('post_sources')
      .values(
        posts.map((p) => ({
          community_id: this.communityId,
          post_id: p.id,
          citing,
          citer,
          created_at: at,
        })),
      )
      .onConflict((oc) => oc.columns(['post_id', 'citing']).doNothing())
      .execute();
    const rows = await this.db
      .selectFrom('post_sources')
      .select((eb) => ['post_id', eb.fn.count<number>('citer').distinct().as('n')])
      .where('community_id', '=', this.communityId)
      .where(
        'post_id',
        'in',
        posts.map((p) => p.id),
      )
      .groupBy('post_id')
      .execute();
    return new Map(rows.map((r) => [r.post_id, Number(r.n)]));
  }

  async agentOwner(agentId: string): Promise<string | undefined> {
    if (!isUuid(agentId)) return undefined;
    const r = await this.db
      .selectFrom('agent_owners')
      .select('owner')
      .where('community_id', '=', this.communityId)
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
    return r?.owner;
  }

  async setAgentOwner(agentId: string, owner: string): Promise<void> {
    await this.db
      .insertInto('agent_owners')
      .values({ agent_id: agentId, community_id: this.communityId, owner })
      .onConflict((oc) => oc.column('agent_id').doUpdateSet({ owner }))
      .execute();
  }
}
