// draft.save and draft.discard: the person's unsent text at one place (a reply to a topic, or a
// new topic), kept or dropped. A draft is the person's own: nobody queues or approves it.
import { z } from 'zod';
import type { DraftPlace } from '../../store/drafts.ts';
import { draftPlace, draftView } from '../drafts/service.ts';
import { draftTitle, replyBody, topicRef } from '../fields.ts';
import { personalWrite } from './personal-write.ts';

/** The topic a draft replies to, for the audit entry (none: a new topic). */
const topicOf = (place: DraftPlace) => (place === 'new' ? undefined : place.slice('topic:'.length));

export const draftSave = personalWrite({
  name: 'draft.save',
  contract: z.object({
    topic: topicRef.optional(),
    title: draftTitle.default(''),
    body: replyBody,
  }),
  load: (ctx, _person, input) => draftPlace(ctx.store, ctx.community, input.topic),
  apply: async (step, person, input, place) => ({
    draft: draftView(
      await step.tx
        .community(step.community.id)
        .drafts.save(person.personId, place, { title: input.title, body: input.body }),
    ),
  }),
  targets: (out) => ({ topic_id: out.draft.topicId ?? undefined }),
});

export const draftDiscard = personalWrite({
  name: 'draft.discard',
  contract: z.object({ topic: topicRef.optional() }),
  load: (ctx, _person, input) => draftPlace(ctx.store, ctx.community, input.topic),
  apply: async (step, person, _input, place) => ({
    discarded: await step.tx.community(step.community.id).drafts.discard(person.personId, place),
    topic_id: topicOf(place),
  }),
  targets: (out) => ({ topic_id: out.topic_id }),
});
