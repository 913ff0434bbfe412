// The words of Hamlet's access model: roles of people in a community, scopes of agents, the kinds
// of write that can be queued for approval, and the states of that queue. The store keeps them as
// plain strings; the domain owns what they may be.

/** A person's role in a community, weakest last. */
export const ROLES = ['owner', 'admin', 'moderator', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** What an agent key may do beyond reading. */
export const SCOPES = [
  'topic:create',
  'post:create',
  'solution:mark',
  'article:write',
  'approval:decide',
  /** Votes and "this worked" reports (the feedback toolset's confirm_answer and vote). */
  'feedback:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** The writes an approval policy governs, each needing its own scope. */
export const WRITE_KINDS = [
  'topic.create',
  'post.create',
  'solution.mark',
  'article.write',
] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

/**
 * Groups of MCP tools beyond the community server's default nine, each turned on in a community's
 * MCP configuration: feedback (votes, "this worked", flags) and moderation (the review queue and
 * moderator actions).
 */
export const TOOLSETS = ['feedback', 'moderation'] as const;
export type Toolset = (typeof TOOLSETS)[number];

export const POLICY_MODES = ['auto', 'approval'] as const;
export type PolicyMode = (typeof POLICY_MODES)[number];

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'applied', 'failed'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export function isRole(value: unknown): value is Role {
  return (ROLES as readonly unknown[]).includes(value);
}

export function isScope(value: unknown): value is Scope {
  return (SCOPES as readonly unknown[]).includes(value);
}

export function isWriteKind(value: unknown): value is WriteKind {
  return (WRITE_KINDS as readonly unknown[]).includes(value);
}
