// post.create: a reply to a topic. The topic is read once here; the content service refuses a
// closed topic or a knowledge-base article.
import { replySchema } from '../content-inputs.ts';
import { findTopic } from '../content-lookup.ts';
import { resolveMentions } from '../notifications/mentions.ts';
import { uploadsIn } from '../uploads/links.ts';
import { contentWrite, type ContentDeps, type ContentUseCase } from './content-write.ts';

export const postCreate = (deps: ContentDeps): ContentUseCase =>
  contentWrite(
    {
      kind: 'post.create',
      noun: 'reply',
      contract: replySchema,
      load: async (store, community, payload) => ({
        topic: await findTopic(store.community(community.id), payload.topic),
        mentions: await resolveMentions(store, community, payload.body),
        uploads: await uploadsIn(store, community, payload.body),
      }),
      rows: async (content, actor, community, payload, loaded) => ({
        post: await content.writeReply(actor, community, payload, loaded),
      }),
    },
    deps,
  );
