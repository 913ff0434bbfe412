// The web's search page's own searches: search_community and search_network with one more choice,
// which words a result must hold (`words`: "all" or "any"). The page asks for every word first and,
// when no topic has them all, for any word, saying so. Not tools nor REST routes: agents keep the
// tools' ranking of any word, the one the labelled search-quality set measures.
import { z } from 'zod';
import { searchCommunity } from './community.ts';
import { networkScope, searchNetwork, withCommunity } from './network.ts';
import { defineOperation } from './operation.ts';

const words = z
  .enum(['all', 'any'])
  .default('all')
  .describe(
    '"all": a result holds every significant word (the default); "any": one of them will do.',
  );

export const searchCommunityPage = defineOperation({
  ...searchCommunity,
  input: searchCommunity.input.extend({ words }),
  mcp: false,
  run: (ctx, { query, mode, filters, words }) =>
    ctx.services.search.search([ctx.community], query, filters ?? {}, mode, { words }),
});

export const searchNetworkPage = defineOperation({
  ...searchNetwork,
  input: searchNetwork.input.extend({ words }),
  mcp: false,
  run: async (ctx, { query, communities, mode, filters, words }) => {
    const within = await networkScope(ctx.services, communities);
    const found = await ctx.services.search.search(within, query, filters ?? {}, mode, { words });
    return { ...found, results: withCommunity(found.results, within) };
  },
});
