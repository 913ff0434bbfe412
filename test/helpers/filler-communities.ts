// Thousands of small communities in one go, for tests and benchmarks of a network that size: each
// with one category and its topics (one post each), written in bulk straight into the tables (one
// multi-row insert per table and batch) rather than through the write runner, which at a few
// milliseconds a topic would take minutes for 10,000 communities. The database's own triggers index
// every post as any write does. Texts come from the caller, so a test controls every word.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.ts';

export type FillerTopic = { title: string; body: string };

export type FillerOptions = {
  /** How many communities. */
  count: number;
  /** Slug prefix (slugs are `<prefix>-<n>`). */
  prefix: string;
  /** The topics of community `n` (0-based). */
  topics: (n: number) => FillerTopic[];
  /** Whether community `n` is private (default: none). */
  isPrivate?: (n: number) => boolean;
  /** Communities per batch of inserts. */
  batch?: number;
};

/** Adds the communities; resolves with their ids in order. */
export async function addFillerCommunities(
  db: Kysely<Database>,
  options: FillerOptions,
): Promise<string[]> {
  const ids: string[] = [];
  const batch = options.batch ?? 250;
  const at = new Date('2024-01-01T00:00:00Z').getTime();
  for (let start = 0; start < options.count; start += batch) {
    const rows = {
      communities: [] as object[],
      categories: [] as object[],
      topics: [] as object[],
      posts: [] as object[],
    };
    for (let n = start; n < Math.min(options.count, start + batch); n++) {
      const id = randomUUID();
      const category = randomUUID();
      const when = new Date(at + n * 60_000).toISOString();
      ids.push(id);
      rows.communities.push({
        id,
        slug: `${options.prefix}-${n}`,
        name: `${options.prefix} ${n}`,
        description: '',
        guidelines: '',
        visibility: options.isPrivate?.(n) ? 'private' : 'public',
        custom_domain: null,
        created_at: when,
        updated_at: when,
      });
      rows.categories.push({
        id: category,
        community_id: id,
        slug: 'general',
        name: 'General',
        description: '',
        position: 1,
        kind: 'discussion',
        approval_policy: null,
        created_at: when,
      });
      options.topics(n).forEach((t, i) => {
        const topic = randomUUID();
        const common = { community_id: id, author_kind: 'person', author_id: null };
        rows.topics.push({
          ...common,
          id: topic,
          category_id: category,
          slug: `topic-${i + 1}`,
          title: t.title,
          author_name: 'Filler',
          status: 'open',
          solution_post_id: null,
          created_at: when,
          updated_at: when,
          last_posted_at: when,
        });
        rows.posts.push({
          ...common,
          id: randomUUID(),
          topic_id: topic,
          position: 1,
          author_name: 'Filler',
          body: t.body,
          created_at: when,
          edited_at: null,
        });
      });
    }
    await db.transaction().execute(async (tx) => {
      for (const table of ['communities', 'categories', 'topics', 'posts'] as const) {
        const values = rows[table];
        // Below SQLite's and PostgreSQL's limits on bound parameters per statement.
        for (let i = 0; i < values.length; i += 500)
          await tx
            .insertInto(table)
            .values(values.slice(i, i + 500) as never)
            .execute();
      }
    });
  }
  return ids;
}
