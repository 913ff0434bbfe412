// The four write kinds (one use case each, ./use-case.ts) dispatched by kind, and what a write
// returns. Shared by the write runner (writes applied at once) and the approval queue (writes
// applied when approved): both bind the content service to their transaction and publish its
// events only after the commit.
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { ContentService } from '../content.ts';
import { ContentEvents, type ContentEvent } from '../events.ts';
import type { PostView, TopicView } from '../views.ts';
import type { WriteKind } from '../vocabulary.ts';
import { articleWrite } from './article-write.ts';
import { postCreate } from './post-create.ts';
import { solutionMark } from './solution-mark.ts';
import { topicCreate } from './topic-create.ts';
import type { Loaded, WriteCommand, WrittenContent } from './use-case.ts';
import { authorOf } from '../authorization.ts';
import { notifyWritten } from '../notifications/produce.ts';

export type { WrittenContent } from './use-case.ts';

/** How the actor's messages name each kind of write. */
export const NOUN: Record<WriteKind, string> = {
  'topic.create': topicCreate.noun,
  'post.create': postCreate.noun,
  'solution.mark': solutionMark.noun,
  'article.write': articleWrite.noun,
};

/** The use case's load step: what the write needs, read once (not_found when it is missing). */
export async function loadCommand(
  store: Store,
  community: Community,
  c: WriteCommand,
): Promise<Loaded> {
  switch (c.kind) {
    case 'topic.create':
      return topicCreate.load(store, community, c.payload);
    case 'post.create':
      return postCreate.load(store, community, c.payload);
    case 'solution.mark':
      return solutionMark.load(store, community, c.payload);
    case 'article.write':
      return articleWrite.load(store, community, c.payload);
  }
}

/** The use case's rows: applies `c` as `actor` through `content` (bound to the caller's transaction). */
export async function applyCommand(
  content: ContentService,
  actor: Actor,
  community: Community,
  c: WriteCommand,
  loaded: Loaded,
): Promise<WrittenContent> {
  switch (c.kind) {
    case 'topic.create':
      return topicCreate.apply(content, actor, community, c.payload, loaded);
    case 'post.create':
      return postCreate.apply(content, actor, community, c.payload, loaded);
    case 'solution.mark':
      return solutionMark.apply(content, actor, community, c.payload, loaded);
    case 'article.write':
      return articleWrite.apply(content, actor, community, c.payload, loaded);
  }
}

/**
 * The notifications of an applied write, in its transaction (`tx`), by the write's author: the
 * people it concerns hear of it (../notifications/produce.ts). What its @mentions did is added to
 * the result the writer is shown.
 */
export async function notifyCommand(
  step: {
    tx: Store;
    config: Config;
    actor: Actor;
    community: Community;
    command: WriteCommand;
    loaded: Loaded;
  },
  written: WrittenContent,
): Promise<WrittenContent> {
  const { tx, config, actor, community, command: c, loaded } = step;
  const mentions = await notifyWritten(
    { tx, config, community },
    c.kind,
    authorOf(actor),
    written,
    loaded,
  );
  return mentions ? { ...written, mentions } : written;
}

/**
 * A stored result (idempotency record, applied approval) as WrittenContent. Results stored before
 * this shape existed held the bare topic or post view; they are read the same way.
 */
export function asWrittenContent(stored: unknown): WrittenContent | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const r = stored as Record<string, unknown>;
  if ('topic' in r || 'post' in r) return r as WrittenContent;
  if ('isArticle' in r) return { topic: r as unknown as TopicView };
  if ('topicId' in r && 'position' in r) return { post: r as unknown as PostView };
  return null;
}

/** Ids worth keeping in the audit log from a write's result. */
export function resultTargets(result: WrittenContent | null): Record<string, string | undefined> {
  return { topic_id: result?.topic?.id ?? result?.post?.topicId, post_id: result?.post?.id };
}

/** A content service on `tx` whose events are held back until the caller's commit. */
export function deferredContent(
  tx: Store,
  config: Config,
): { content: ContentService; events: ContentEvent[] } {
  const events: ContentEvent[] = [];
  const bus = new ContentEvents();
  bus.subscribe((e) => events.push(e));
  return { content: new ContentService(tx, config, bus), events };
}

/** What the content service returned, as JSON: the first answer and every replay look the same. */
export function asJson<T>(value: T): T {
  return value === undefined ? (null as T) : JSON.parse(JSON.stringify(value));
}
