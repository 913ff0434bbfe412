// topic.create: a new question (topic and first post) in a discussion category. Its category is
// read once here; a knowledge-base category turns the write into article.write (routed in
// ./write-service.ts) before the policy decides.
import { findCategory } from '../content-lookup.ts';
import { resolveMentions } from '../notifications/mentions.ts';
import { uploadsIn } from '../uploads/links.ts';
import type { WriteUseCase } from './use-case.ts';

export const topicCreate: WriteUseCase<'topic.create'> = {
  kind: 'topic.create',
  noun: 'new topic',
  load: async (store, community, payload) => ({
    category: await findCategory(store.community(community.id), community, payload.category),
    mentions: await resolveMentions(store, community, payload.body),
    uploads: await uploadsIn(store, community, payload.body),
  }),
  apply: (content, actor, community, payload, loaded) =>
    content.writeTopic(actor, community, payload, loaded),
};
