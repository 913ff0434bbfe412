// What the fault suite's instances serve: the community "acme" with a support category and an
// agent key that may create topics and reply, written straight into the (migrated) database, so
// that the three instances can start at once without the demo's content.
import { loadConfig } from '../../src/config/config.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { openHamlet } from '../../src/main.ts';

/** `reader`: also an agent that may only read (a caller who never writes). */
export async function seedCommunity(
  databaseUrl: string,
  options: { reader?: boolean } = {},
): Promise<{ key: string; readerKey?: string }> {
  const opened = await openHamlet(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
  try {
    const acme = await opened.store.communities.create({
      slug: 'acme',
      name: 'Acme',
      visibility: 'public',
    });
    await opened.store.community(acme.id).categories.create({
      slug: 'support',
      name: 'Support',
      description: '',
      kind: 'discussion',
      position: 1,
    });
    const { key } = await opened.services.agents.create(systemActor('fault'), acme, {
      name: 'fault-writer',
      scopes: ['topic:create', 'post:create'],
    });
    if (!options.reader) return { key };
    const reader = await opened.services.agents.create(systemActor('fault'), acme, {
      name: 'fault-reader',
      scopes: [],
    });
    return { key, readerKey: reader.key };
  } finally {
    await opened.close();
  }
}
