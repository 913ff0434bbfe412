// What a reader would see of a community after an import: every topic with its post count and date,
// plus the importer's book-keeping. Two imports are "the same" when their snapshots are equal.
import type { Store } from '../../src/store/repositories.ts';
import type { Keyset } from '../../src/store/types.ts';

export type Snapshot = { topics: number; posts: number; imported: number; rows: string[] };

export async function snapshot(store: Store, slug: string): Promise<Snapshot> {
  const community = await store.communities.getBySlug(slug);
  if (!community) throw new Error(`no community ${slug}`);
  const scope = store.community(community.id);
  const rows: string[] = [];
  let posts = 0;
  let after: Keyset | undefined;
  for (;;) {
    const page = await scope.topics.list({ sort: 'created', limit: 500, after });
    for (const t of page.items) {
      posts += t.postCount;
      rows.push(`${t.createdAt} ${t.postCount} ${t.title} [${t.tags.join(',')}]`);
    }
    if (!page.next) break;
    after = page.next;
  }
  rows.sort();
  return { topics: rows.length, posts, imported: await scope.imports.countMessages(), rows };
}
