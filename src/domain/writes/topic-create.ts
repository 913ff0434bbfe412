// topic.create: a new question (topic and first post) in a discussion category. Its category is
// read once here; a knowledge-base category makes the write an article.write (route), whose scope
// (article:write) and contract then apply; otherwise topic:create is checked once the category is known.
import { createTopicSchema } from '../content-inputs.ts';
import { findCategory } from '../content-lookup.ts';
import { resolveMentions } from '../notifications/mentions.ts';
import { uploadsIn } from '../uploads/links.ts';
import { contentWrite, type ContentDeps, type ContentUseCase } from './content-write.ts';

export function topicCreate(deps: ContentDeps, article: ContentUseCase): ContentUseCase {
  const write = contentWrite(
    {
      kind: 'topic.create',
      noun: 'new topic',
      contract: createTopicSchema,
      load: async (store, community, payload) => ({
        category: await findCategory(store.community(community.id), community, payload.category),
        mentions: await resolveMentions(store, community, payload.body),
        uploads: await uploadsIn(store, community, payload.body),
      }),
      rows: (content, actor, community, payload, loaded) =>
        content.writeTopic(actor, community, payload, loaded),
    },
    deps,
    { scopeAfterLoad: true },
  );
  return {
    ...write,
    route: (loaded) => (loaded.category?.kind === 'knowledge_base' ? article : undefined),
  };
}
