// Content events: the seam for what reacts to content changes (search indexing, webhooks, MCP
// resource subscriptions). Services emit after their transaction commits; listeners must not throw
// into the caller (a failing listener is reported through onListenerError, not to the writer).

export type ContentEvent =
  | { type: 'topic.created'; communityId: string; topicId: string; postId: string }
  | { type: 'post.created'; communityId: string; topicId: string; postId: string }
  | { type: 'solution.marked'; communityId: string; topicId: string; postId: string }
  | {
      type: 'article.updated';
      communityId: string;
      topicId: string;
      postId: string;
      revision: number;
    }
  | ApprovalEvent;

/** The approval queue (src/domain/identity/approvals.ts): a write was queued, or decided. */
export type ApprovalEvent =
  | { type: 'approval.requested'; communityId: string; approvalId: string; kind: string }
  | {
      type: 'approval.decided';
      communityId: string;
      approvalId: string;
      kind: string;
      status: 'applied' | 'rejected' | 'failed';
    };

export type ContentListener = (event: ContentEvent) => void;

export class ContentEvents {
  private readonly listeners = new Set<ContentListener>();

  constructor(
    private readonly onListenerError: (err: unknown, event: ContentEvent) => void = () => undefined,
  ) {}

  subscribe(listener: ContentListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ContentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err, event);
      }
    }
  }
}
