// solution.mark: accept a reply as its topic's solution. The topic is read once here; who may
// accept is checked by the content service (the asker, or a moderator).
import { markSolutionSchema } from '../content-inputs.ts';
import { findTopic } from '../content-lookup.ts';
import { contentWrite, type ContentDeps, type ContentUseCase } from './content-write.ts';

export const solutionMark = (deps: ContentDeps): ContentUseCase =>
  contentWrite(
    {
      kind: 'solution.mark',
      noun: 'accepted answer',
      contract: markSolutionSchema,
      load: async (store, community, payload) => ({
        topic: await findTopic(store.community(community.id), payload.topic),
      }),
      rows: async (content, actor, community, payload, loaded) => ({
        topic: await content.writeSolution(actor, community, payload, loaded),
      }),
    },
    deps,
  );
