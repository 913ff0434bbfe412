// post.create: a reply to a topic. The topic is read once here; the content service refuses a
// closed topic or a knowledge-base article.
import { findTopic } from '../content-lookup.ts';
import { resolveMentions } from '../notifications/mentions.ts';
import { uploadsIn } from '../uploads/links.ts';
import type { WriteUseCase } from './use-case.ts';

export const postCreate: WriteUseCase<'post.create'> = {
  kind: 'post.create',
  noun: 'reply',
  load: async (store, community, payload) => ({
    topic: await findTopic(store.community(community.id), payload.topic),
    mentions: await resolveMentions(store, community, payload.body),
    uploads: await uploadsIn(store, community, payload.body),
  }),
  apply: async (content, actor, community, payload, loaded) => ({
    post: await content.writeReply(actor, community, payload, loaded),
  }),
};
