// Drafts: a person's unsent reply to a topic (or new topic), kept on the server so that it comes
// back on their next visit, on another device, after signing out or after a form expired. Only the
// person reads and writes their own; saving and discarding are personal writes run by the one
// runner (../writes/draft-save.ts).
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Draft, DraftPlace } from '../../store/drafts.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { findTopic } from '../content-lookup.ts';
import { topicRef } from '../fields.ts';
import { requirePersonHere } from '../notifications/person.ts';
import { parse } from '../validate.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import type { UseCase } from '../writes/use-case.ts';

export type DraftView = { topicId: string | null; title: string; body: string; updatedAt: string };

/** The place of a draft: a reply to `topic` (its id or slug), or a new topic when none is named. */
export async function draftPlace(
  store: Store,
  community: Community,
  topic: string | undefined,
): Promise<DraftPlace> {
  if (!topic) return 'new';
  const found = await findTopic(store.community(community.id), topic);
  return `topic:${found.id}`;
}

export function draftView(d: Draft): DraftView {
  return {
    topicId: d.place === 'new' ? null : d.place.slice('topic:'.length),
    title: d.title,
    body: d.body,
    updatedAt: d.updatedAt,
  };
}

export class DraftService {
  constructor(
    private readonly store: Store,
    private readonly runner: WriteRunner,
  ) {}

  /** The person's draft at that place, or null. */
  async get(actor: Actor, community: Community, topic?: string): Promise<DraftView | null> {
    const person = requirePersonHere(actor, community);
    const t = parse(z.object({ topic: topicRef.optional() }), { topic }).topic;
    const place = await draftPlace(this.store, community, t);
    const d = await this.store.community(community.id).drafts.get(person.personId, place);
    return d ? draftView(d) : null;
  }

  /** Runs one of the draft writes (draft.save, draft.discard). */
  async write<I, L, R>(
    actor: Actor,
    community: Community,
    use: UseCase<I, L, R>,
    input: unknown,
    options: RunOptions = {},
  ): Promise<R> {
    return this.runner.run(use, actor, community, input, options);
  }
}
