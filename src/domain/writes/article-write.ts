// article.write: create a knowledge-base article or revise it (same slug). Its category is read
// once here (or handed over by a topic.create routed to it).
import { findCategory } from '../content-lookup.ts';
import type { WriteUseCase } from './use-case.ts';

export const articleWrite: WriteUseCase<'article.write'> = {
  kind: 'article.write',
  noun: 'article',
  load: async (store, community, payload) => ({
    category: await findCategory(store.community(community.id), community, payload.category),
  }),
  apply: (content, actor, community, payload, loaded) =>
    content.writeArticle(actor, community, payload, loaded),
};
