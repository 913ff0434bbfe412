// The present step: domain views (camelCase) → operation output (snake_case, as every documented
// result is). One presenter per shape: every operation (and MCP resource) that shows one uses it.
import type { z } from 'zod';
import type { KeyView } from '../domain/identity/accounts.ts';
import type { AuthorView, CategoryView, PostView, TopicView } from '../domain/views.ts';
import type { TopicWithPosts } from '../domain/content.ts';
import { presentKnowledge } from '../domain/knowledge/shown.ts';
import { confirmationSummary, type PostSignals } from '../domain/feedback/signals.ts';
import type { TopicLink } from '../domain/moderation-reads.ts';
import type { WrittenContent } from '../domain/writes/written.ts';
import type { ApprovalView } from '../domain/writes/approvals.ts';
import type { WriteResult } from '../domain/writes/write-service.ts';
import type { Urls } from './operation.ts';
import type {
  authorOut,
  categoryOut,
  categorySummary,
  communitySummary,
  keyOut,
  postOut,
  signalsOut,
  topicOut,
  writeOutput,
} from './schemas.ts';

/** An author: the label only where it says something (agents, people writing through an app). */
export function presentAuthor(a: AuthorView): z.infer<typeof authorOut> {
  return a.kind !== 'system' && a.label
    ? { kind: a.kind, id: a.id, name: a.name, label: a.label }
    : { kind: a.kind, id: a.id, name: a.name };
}

/** The author with their reputation here, read with the post's signals (none earned: left out). */
function withReputation(
  author: z.infer<typeof authorOut>,
  reputation: number | null | undefined,
): z.infer<typeof authorOut> {
  return reputation === null || reputation === undefined ? author : { ...author, reputation };
}

export function presentTopic(t: TopicView): z.infer<typeof topicOut> {
  return {
    id: t.id,
    slug: t.slug,
    title: t.title,
    url: t.url,
    category: t.category,
    author: presentAuthor(t.author),
    status: t.status,
    tags: t.tags,
    is_article: t.isArticle,
    solution_post_id: t.solutionPostId,
    reply_count: t.replyCount,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    last_posted_at: t.lastPostedAt,
    locked: t.locked,
    pinned: t.pinned,
    duplicate_of: t.duplicateOf,
    merged_into: t.mergedInto,
    ...(t.deleted ? { deleted: t.deleted } : {}),
  };
}

/**
 * What a presenter adds beside the documented output for a face that shows HTML (the web, see
 * Caller.showsHtml): the stored render of a post or revision. The APIs never get it.
 */
export type Rendered = { html: string };

/** A post as the APIs return it (Markdown); with `html`, its stored render too (for the web). */
export function presentPost(
  p: PostView,
  html = false,
): z.infer<typeof postOut> & Partial<Rendered> {
  const out = {
    id: p.id,
    topic_id: p.topicId,
    position: p.position,
    url: p.url,
    author: withReputation(presentAuthor(p.author), p.signals?.authorReputation),
    body: p.body,
    is_question: p.isQuestion,
    is_solution: p.isSolution,
    created_at: p.createdAt,
    edited_at: p.editedAt,
    ...(p.hidden ? { hidden: p.hidden } : {}),
    ...(p.deleted ? { deleted: p.deleted } : {}),
  };
  const signed = p.signals ? { ...out, ...presentSignals(p.signals, !p.isQuestion) } : out;
  return html ? { ...signed, html: p.html } : signed;
}

/** A post's votes and confirmations, and what agents left on it (an answer's confidence). */
export function presentSignals(s: PostSignals, answer = true): z.infer<typeof signalsOut> {
  return {
    score: s.score,
    confirmations: {
      worked_by_agents: s.workedAgents,
      worked_by_people: s.workedPeople,
      failed: s.failed,
      last_worked_at: s.lastWorkedAt,
      summary: confirmationSummary(s),
    },
    ...presentKnowledge(s, answer),
  };
}

/** A topic with one page of its posts (with `html`, each post's render too, for the web). */
export function presentTopicPage(
  t: TopicWithPosts,
  html = false,
): {
  topic: z.infer<typeof topicOut>;
  duplicate_of?: TopicLink;
  duplicates?: TopicLink[];
  posts: (z.infer<typeof postOut> & Partial<Rendered>)[];
  next_cursor: string | null;
} {
  return {
    topic: presentTopic(t.topic),
    ...(t.duplicateOf ? { duplicate_of: t.duplicateOf } : {}),
    ...(t.duplicates?.length ? { duplicates: t.duplicates } : {}),
    posts: t.posts.map((p) => presentPost(p, html)),
    next_cursor: t.nextCursor,
  };
}

/** An approval as every face shows it: what was submitted, by whom, and what became of it. */
export function presentApproval(view: ApprovalView) {
  return { ...view, result: view.result ? presentWritten(view.result) : null };
}

/** An applied write's result, whatever the write was: its topic and/or post, presented. */
export function presentWritten(result: WrittenContent | null): {
  topic?: z.infer<typeof topicOut>;
  post?: z.infer<typeof postOut>;
} {
  const out: { topic?: z.infer<typeof topicOut>; post?: z.infer<typeof postOut> } = {};
  if (result?.topic) out.topic = presentTopic(result.topic);
  if (result?.post) out.post = presentPost(result.post);
  return out;
}

/** A write's answer: applied (with what it wrote), or queued for approval (isError false either way). */
export function presentWrite(
  outcome: WriteResult,
  appliedMessage: string,
): z.input<typeof writeOutput> {
  if (outcome.status === 'pending_approval') {
    return {
      status: 'pending_approval',
      approval_id: outcome.approval_id,
      message: outcome.message,
      reason: outcome.reason,
    };
  }
  const mentions = outcome.result.mentions;
  const unread = mentions?.cannotRead.length
    ? ` Not notified (no reader of this topic has that handle): ${mentions.cannotRead.map((h) => `@${h}`).join(', ')}.`
    : '';
  return {
    status: 'applied',
    message: appliedMessage + unread,
    reason: outcome.reason,
    ...presentWritten(outcome.result),
    ...(mentions
      ? {
          mentions: {
            notified: mentions.notified,
            agents: mentions.agents ?? [],
            cannot_read: mentions.cannotRead,
          },
        }
      : {}),
  };
}

/** A category with its topic count (list_categories adds its id). */
export function presentCategory(
  c: CategoryView & { topicCount: number },
): z.infer<typeof categorySummary> {
  return {
    slug: c.slug,
    name: c.name,
    description: c.description,
    kind: c.kind,
    topic_count: c.topicCount,
  };
}

/** A category as list_categories and the category writes show it. */
export function presentListedCategory(
  c: CategoryView & { topicCount: number },
): z.infer<typeof categoryOut> {
  return {
    id: c.id,
    ...presentCategory(c),
    position: c.position,
    approval_policy: c.approvalPolicy ?? 'community',
  };
}

/** A community with its web and MCP addresses. */
export function presentCommunity(
  c: { slug: string; name: string; description: string },
  urls: Urls,
): z.infer<typeof communitySummary> {
  return {
    slug: c.slug,
    name: c.name,
    description: c.description,
    web_url: urls.web(c.slug),
    mcp_url: urls.mcp(c.slug),
  };
}

/** A key as it is listed (a user key, or an agent's with its agent_id added). */
export function presentKey(k: KeyView): z.infer<typeof keyOut> {
  return {
    id: k.id,
    prefix: k.prefix,
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
    last_used_at: k.lastUsedAt,
  };
}
