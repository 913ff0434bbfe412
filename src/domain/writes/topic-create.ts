// topic.create: a new question (topic and first post) in a discussion category. Its category is
// read once here; a knowledge-base category makes the write an article.write (route), whose scope
// (article:write) and contract then apply; otherwise topic:create is checked once the category is
// known. A caller who may write neither, or whose payload or category is wrong, is refused as the
// write it asked for first (topic:create), before hearing what else is wrong.
import { createTopicSchema } from '../content-inputs.ts';
import { findCategory } from '../content-lookup.ts';
import { resolveMentions } from '../notifications/mentions.ts';
import { uploadsIn } from '../uploads/links.ts';
import { requireCanWriteKind } from '../authorization.ts';
import { contentWrite, type ContentDeps, type ContentUseCase } from './content-write.ts';
import type { WriteContext } from './use-case.ts';

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
  const mayAsk = (ctx: WriteContext) =>
    requireCanWriteKind(ctx.store, ctx.actor, ctx.community, 'topic.create');
  return {
    ...write,
    async guard(ctx) {
      await write.guard!(ctx);
      // Whoever may write articles may find out where: a knowledge base routes there.
      const articles = await requireCanWriteKind(
        ctx.store,
        ctx.actor,
        ctx.community,
        'article.write',
      )
        .then(() => true)
        .catch(() => false);
      if (!articles) await mayAsk(ctx);
    },
    async load(ctx, input) {
      try {
        return await write.load(ctx, input);
      } catch (err) {
        await mayAsk(ctx);
        throw err;
      }
    },
    route: (loaded) => (loaded.category?.kind === 'knowledge_base' ? article : undefined),
  };
}
