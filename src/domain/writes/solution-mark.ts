// solution.mark: accept a reply as its topic's solution. The topic is read once here; who may
// accept is checked by the content service (the asker, or a moderator).
import { findTopic } from '../content-lookup.ts';
import type { WriteUseCase } from './use-case.ts';

export const solutionMark: WriteUseCase<'solution.mark'> = {
  kind: 'solution.mark',
  noun: 'accepted answer',
  load: async (store, community, payload) => ({
    topic: await findTopic(store.community(community.id), payload.topic),
  }),
  apply: async (content, actor, community, payload, loaded) => ({
    topic: await content.writeSolution(actor, community, payload, loaded),
  }),
};
