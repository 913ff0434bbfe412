import type { Command } from './commands.ts';
import { parseCommandArgs, withStore } from './with-store.ts';
import { ensureDemoCommunity } from '../domain/demo.ts';
import { communityOrigin } from '../domain/urls.ts';

export const seedDemoCommand: Command = {
  name: 'seed demo',
  summary: 'create the demo communities "acme" (public) and "skunkworks" (private), once',
  async run(args) {
    parseCommandArgs(args, {}, 'hamlet seed demo');
    await withStore(async (store, config) => {
      const result = await ensureDemoCommunity(store, config);
      if (!result.created) {
        console.log(`${result.reason} Nothing to do.`);
        return;
      }
      const mail = result.imported
        ? `, ${result.imported.topicsCreated} topics / ${result.imported.postsCreated} posts from the mailing-list archive`
        : ' (mail corpus not installed: hand-written content only)';
      console.log(`Created the demo: ${result.communities.map((c) => `${c.slug} (${c.visibility})`).join(', ')}; ` +
        `${result.topics} topics, ${result.articles} articles${mail}. Open ${communityOrigin(config, 'acme')}`);
    });
  },
};
