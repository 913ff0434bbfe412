// The shape every write takes, one file per kind beside this one (topic-create.ts, post-create.ts,
// solution-mark.ts, article-write.ts): a contract (the payload's schema), what it loads once before
// the policy decides, and how it writes its rows (and outbox entries) inside the runner's
// transaction. The runner (./write-service.ts) adds the rest of the steps in order: policy (with a
// named reason) → transaction {idempotency ledger, rows, outbox} → events after commit → audit.
import type { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import type { ContentService } from '../content.ts';
import type { Loaded } from '../content-lookup.ts';
import {
  markSolutionSchema,
  replySchema,
  createTopicSchema,
  upsertArticleSchema,
} from '../content-inputs.ts';
import { parse } from '../validate.ts';
import type { WriteKind } from '../vocabulary.ts';
import type { PostView, TopicView } from '../views.ts';
import type { MentionReport } from '../notifications/produce.ts';

export type { Loaded };

/** What an applied write produced: the topic and/or post, and an article's revision. */
export type WrittenContent = {
  topic?: TopicView;
  post?: PostView;
  revision?: number;
  created?: boolean;
  /** Who the post's @mentions notified, and who they could not (people who cannot read it). */
  mentions?: MentionReport;
};

/** The schema of each kind's payload: what its author gives (the queue stores its output). */
export const WRITE_CONTRACTS = {
  'topic.create': createTopicSchema,
  'post.create': replySchema,
  'solution.mark': markSolutionSchema,
  'article.write': upsertArticleSchema,
} as const;

/** The typed payload of each kind, as its contract parsed it. */
export type WritePayload = { [K in WriteKind]: z.output<(typeof WRITE_CONTRACTS)[K]> };

/** One write: its kind and that kind's payload (a union keyed by kind). */
export type WriteCommand<K extends WriteKind = WriteKind> = {
  [P in K]: { kind: P; payload: WritePayload[P] };
}[K];

export type WriteUseCase<K extends WriteKind> = {
  kind: K;
  /** How the actor's message names the write ("Your new topic is queued …"). */
  noun: string;
  /** Reads what the write needs (not_found naming where to find valid ones); nothing is written. */
  load(store: Store, community: Community, payload: WritePayload[K]): Promise<Loaded>;
  /** Writes the rows and outbox entries through `content`, bound to the runner's transaction. */
  apply(
    content: ContentService,
    actor: Actor,
    community: Community,
    payload: WritePayload[K],
    loaded: Loaded,
  ): Promise<WrittenContent>;
};

/** `payload` checked against the contract of `kind`: the typed command, or invalid_argument. */
export function commandOf(kind: WriteKind, payload: unknown): WriteCommand {
  switch (kind) {
    case 'topic.create':
      return { kind, payload: parse(WRITE_CONTRACTS[kind], payload) };
    case 'post.create':
      return { kind, payload: parse(WRITE_CONTRACTS[kind], payload) };
    case 'solution.mark':
      return { kind, payload: parse(WRITE_CONTRACTS[kind], payload) };
    case 'article.write':
      return { kind, payload: parse(WRITE_CONTRACTS[kind], payload) };
  }
}
