// What a content write answers: applied (the topic and/or post it wrote) or queued for a moderator
// (the approval to follow), as the ledger, the approval queue and every face keep and show it.
import type { MentionReport } from '../notifications/produce.ts';
import type { WriteKind } from '../vocabulary.ts';
import type { PostView, TopicView } from '../views.ts';

/** What an applied write produced: the topic and/or post, and an article's revision. */
export type WrittenContent = {
  topic?: TopicView;
  post?: PostView;
  revision?: number;
  created?: boolean;
  /** Who the post's @mentions notified, and who they could not (people who cannot read it). */
  mentions?: MentionReport;
};

export type AppliedWrite = {
  status: 'applied';
  kind: WriteKind;
  result: WrittenContent;
  /** Why it applied at once (absent in results recorded before reasons were named). */
  reason?: string;
};
export type QueuedWrite = {
  status: 'pending_approval';
  kind: WriteKind;
  approval_id: string;
  message: string;
  /** Why it waits for a moderator (absent in results recorded before reasons were named). */
  reason?: string;
};
export type WriteResult = AppliedWrite | QueuedWrite;

/** What the content service returned, as JSON: the first answer and every replay look the same. */
export function asJson<T>(value: T): T {
  return value === undefined ? (null as T) : (JSON.parse(JSON.stringify(value)) as T);
}

/** Ids worth keeping in the audit log from a write's result. */
export function resultTargets(result: WrittenContent | null): Record<string, string | undefined> {
  return { topic_id: result?.topic?.id ?? result?.post?.topicId, post_id: result?.post?.id };
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

/** A result as the ledger stored it (older records held a bare topic or post view). */
export function fromLedger(r: WriteResult): WriteResult {
  return r.status === 'applied' ? { ...r, result: asWrittenContent(r.result) ?? {} } : r;
}
