// `hamlet seed demo`: creates the demo communities once.
import type { Command } from './command.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { ensureDemoCommunity } from '../demo/demo.ts';
import { printedWebUrl } from './printed-urls.ts';

export const seedDemoCommand: Command = {
  name: 'seed demo',
  summary: 'create the demo communities "acme" (public) and "skunkworks" (private), once',
  async run(args) {
    parseCommandArgs(args, {}, 'hamlet seed demo');
    await withHamlet(async (store, config, services) => {
      const result = await ensureDemoCommunity(store, services, config);
      if (!result.created) {
        console.log(`${result.reason} Nothing to do.`);
        return;
      }
      const mail = result.imported
        ? `, ${result.imported.topicsCreated} topics / ${result.imported.postsCreated} posts from the mailing-list archive`
        : ' (mail corpus not installed: hand-written content only)';
      console.log(
        `Created the demo: ${result.communities.map((c) => `${c.slug} (${c.visibility})`).join(', ')}; ` +
          `${result.topics} topics, ${result.articles} articles${mail}. Open ${printedWebUrl(config, 'acme')}`,
      );
    });
  },
};
