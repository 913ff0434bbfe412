// Applying one write through the content service, and what a write returns. Shared by the write
// service (writes applied at once) and the approval queue (writes applied when approved): both bind
// the content service to their transaction and publish its events only after the commit.
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import {
  ContentService,
  type CreateTopicInput,
  type ReplyInput,
  type UpsertArticleInput,
} from '../content.ts';
import { ContentEvents, type ContentEvent } from '../events.ts';
import type { PostView, TopicView } from '../views.ts';
import type { WriteKind } from '../vocabulary.ts';

/** What an applied write produced: the topic and/or post, and an article's revision. */
export type WrittenContent = {
  topic?: TopicView;
  post?: PostView;
  revision?: number;
  created?: boolean;
};

/** The payload each kind of write takes (validated by the content service when applied). */
export type WritePayload = {
  'topic.create': CreateTopicInput;
  'post.create': ReplyInput;
  'solution.mark': { topic: string; post: string };
  'article.write': UpsertArticleInput;
};

/** Applies one write as `actor` through `content` (bound to the caller's transaction). */
export async function applyWrite(
  content: ContentService,
  actor: Actor,
  community: Community,
  kind: WriteKind,
  payload: unknown,
): Promise<WrittenContent> {
  switch (kind) {
    case 'topic.create':
      return content.createTopic(actor, community, payload as CreateTopicInput);
    case 'post.create':
      return { post: await content.reply(actor, community, payload as ReplyInput) };
    case 'solution.mark':
      return {
        topic: await content.markSolution(
          actor,
          community,
          payload as WritePayload['solution.mark'],
        ),
      };
    case 'article.write':
      return content.upsertArticle(actor, community, payload as UpsertArticleInput);
  }
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
