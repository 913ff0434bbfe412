// The transactional outbox: the services that change content or the approval queue call
// recordWebhookEvent inside their own transaction, so the event is stored exactly when the change
// commits (and lost with it when it rolls back). The event keeps the change as the domain saw it;
// the dispatcher renders it in the API's shapes for each delivery.
import type { Store } from '../../store/repositories.ts';
import type { PostView, TopicView } from '../views.ts';

export const WEBHOOK_EVENTS = [
  'topic.created',
  'post.created',
  'solution.marked',
  'article.updated',
  'approval.requested',
  'approval.decided',
  'mention.created',
  'post.voted',
  'answer.confirmed',
  'post.flagged',
  'topic.moderated',
  'post.cited',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

type ContentChange = { topic: TopicView; post: PostView };
type ApprovalChange = { approval: ApprovalSnapshot };

/** What each event carries (camelCase domain views, rendered snake_case on delivery). */
export type WebhookPayloads = {
  'topic.created': ContentChange;
  'post.created': ContentChange;
  'solution.marked': ContentChange;
  'article.updated': ContentChange & { revision: number; created: boolean };
  'approval.requested': ApprovalChange;
  'approval.decided': ApprovalChange;
  /** A new topic or reply @mentioned agents or people of the community (who, by kind and id). */
  'mention.created': ContentChange & { mentioned: MentionedRef[] };
  /** A person's vote on a post changed (the post carries its signals after it; the voter is not named). */
  'post.voted': ContentChange & { vote: { value: number; previous: number } };
  /** An agent or a person reported whether an answer worked (the post carries its signals after it). */
  'answer.confirmed': ContentChange & {
    outcome: {
      worked: boolean;
      note: string | null;
      reporter: { kind: string; id: string; name: string };
    };
  };
  /** A write or an outcome report cited the post as a source it used (its cited_by after it). */
  'post.cited': ContentChange & {
    citation: {
      cited_by: number;
      citing: { kind: 'post' | 'outcome'; post_id: string };
      by: { kind: 'person' | 'agent' | 'system'; id: string | null; name: string };
    };
  };
  /** Someone flagged a post (../moderation/flags.ts): the post, its topic and the flag. */
  'post.flagged': ContentChange & { flag: FlagSnapshot };
  /** A moderator acted on the topic (or one of its posts): what, who, why (../writes/moderator-write.ts). */
  'topic.moderated': {
    topic: TopicView;
    post?: PostView;
    action: string;
    by: { kind: 'person' | 'agent' | 'system'; id: string | null; name: string };
    reason: string;
    detail: string;
  };
};

/** A flag as post.flagged carries it. */
export type FlagSnapshot = {
  id: string;
  reason: string;
  note: string | null;
  flagger: { kind: 'person' | 'agent'; name: string };
  trusted: boolean;
};

/** One @mentioned agent or person, as a mention.created event names them. */
export type MentionedRef = { kind: 'person' | 'agent'; id: string; handle: string };

/** An approval as the queue's view shows it (../writes/approvals.ts: approvalView). */
export type ApprovalSnapshot = { approval_id: string; result: unknown } & Record<string, unknown>;

/**
 * Writes the event and one pending delivery per subscribed active endpoint, through `tx` (the
 * change's transaction). Nothing is written, and `snapshot` is not called, when no endpoint listens.
 */
export async function recordWebhookEvent<T extends WebhookEventType>(
  tx: Store,
  communityId: string,
  type: T,
  snapshot: () => WebhookPayloads[T] | Promise<WebhookPayloads[T]>,
): Promise<void> {
  const hooks = tx.community(communityId).webhooks;
  const endpoints = await hooks.subscribers(type);
  if (endpoints.length) await hooks.enqueue({ type, payload: await snapshot() }, endpoints);
}
