// draft.save and draft.discard: the person's unsent text at one place (a reply to a topic, or a
// new topic), kept or dropped. A draft is the person's own: nobody queues or approves it.
import { z } from 'zod';
import type { DraftPlace } from '../../store/drafts.ts';
import { draftPlace, draftView, type DraftView } from '../drafts/service.ts';
import { draftTitle, replyBody, topicRef } from '../fields.ts';
import type { PersonalWrite } from './personal-write.ts';

const saveContract = z.object({
  topic: topicRef.optional(),
  title: draftTitle.default(''),
  body: replyBody,
});

export const draftSave: PersonalWrite<typeof saveContract, DraftPlace, { draft: DraftView }> = {
  kind: 'draft.save',
  contract: saveContract,
  load: (store, community, input) => draftPlace(store, community, input.topic),
  apply: async (tx, person, community, input, place) => ({
    draft: draftView(
      await tx
        .community(community.id)
        .drafts.save(person.personId, place, { title: input.title, body: input.body }),
    ),
  }),
};

const discardContract = z.object({ topic: topicRef.optional() });

export const draftDiscard: PersonalWrite<
  typeof discardContract,
  DraftPlace,
  { discarded: boolean }
> = {
  kind: 'draft.discard',
  contract: discardContract,
  load: (store, community, input) => draftPlace(store, community, input.topic),
  apply: async (tx, person, community, _input, place) => ({
    discarded: await tx.community(community.id).drafts.discard(person.personId, place),
  }),
};
