// article.write: create a knowledge-base article or revise it (same slug). Its category is read
// once here (or handed over by a topic.create routed to it).
import { upsertArticleSchema } from '../content-inputs.ts';
import { findCategory } from '../content-lookup.ts';
import { contentWrite, type ContentDeps, type ContentUseCase } from './content-write.ts';

export const articleWrite = (deps: ContentDeps): ContentUseCase =>
  contentWrite(
    {
      kind: 'article.write',
      noun: 'article',
      contract: upsertArticleSchema,
      load: async (store, community, payload) => ({
        category: await findCategory(store.community(community.id), community, payload.category),
      }),
      rows: (content, actor, community, payload, loaded) =>
        content.writeArticle(actor, community, payload, loaded),
    },
    deps,
  );
