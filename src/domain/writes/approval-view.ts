// An approval as every face shows it: what was queued, by whom, its status and decision, what the
// applied write produced, and a sentence saying what happens next.
import type { AuthorRef, Community } from '../../store/types.ts';
import type { ApprovalRecord } from '../../store/identity.ts';
import type { ApprovalStatus, WriteKind } from '../vocabulary.ts';
import { asWrittenContent, type WrittenContent } from './written.ts';

export type ApprovalView = {
  approval_id: string;
  kind: WriteKind;
  status: ApprovalStatus;
  submitted_by: AuthorRef;
  submitted_at: string;
  decided_by: AuthorRef | null;
  decided_at: string | null;
  reason: string | null;
  /** What the applied write returned (the created topic / post with its url), once applied. */
  result: WrittenContent | null;
  payload: unknown;
  message: string;
};

function message(a: ApprovalRecord, slug: string): string {
  switch (a.status as ApprovalStatus) {
    case 'pending':
      return `Waiting for a moderator of "${slug}" to approve or reject it. Nothing is published yet; check again later with get_approval.`;
    case 'approved':
      return 'Approved; it is being applied now. Check again in a moment.';
    case 'applied':
      return `Approved by ${a.decidedBy?.name ?? 'a moderator'} and published.`;
    case 'rejected':
      return `Rejected by ${a.decidedBy?.name ?? 'a moderator'}${a.reason ? `: ${a.reason}` : ''}. Nothing was published; revise it and submit again if it still makes sense.`;
    case 'failed':
      return `Approved, but applying it failed: ${a.reason ?? 'unknown reason'}. Nothing was published; fix the request and submit it again.`;
  }
}

export function approvalView(a: ApprovalRecord, community: Community): ApprovalView {
  return {
    approval_id: a.id,
    kind: a.kind as WriteKind,
    status: a.status as ApprovalStatus,
    submitted_by: a.submitter,
    submitted_at: a.createdAt,
    decided_by: a.decidedBy,
    decided_at: a.decidedAt,
    reason: a.reason,
    result: asWrittenContent(a.result),
    payload: a.payload,
    message: message(a, community.slug),
  };
}
