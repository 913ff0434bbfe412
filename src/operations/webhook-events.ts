// What a webhook receiver gets: each event in the API's shapes (the same topic, post and approval
// objects as the REST and MCP results), inside one envelope. The dispatcher renders stored outbox
// events with renderWebhookEvent; the OpenAPI document lists the schemas under `webhooks`.
import { z } from 'zod';
import type { WebhookEventRecord } from '../store/webhooks.ts';
import type { PostView, TopicView } from '../domain/views.ts';
import type { WrittenContent } from '../domain/writes/written.ts';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../domain/webhooks/outbox.ts';
import { getApproval } from './community.ts';
import { presentPost, presentTopic, presentWritten } from './present.ts';
import { postOut, signalsOut, topicOut } from './schemas.ts';

const contentChange = z.object({ topic: topicOut, post: postOut });

/** The `data` of each event. */
export const WEBHOOK_DATA = {
  'topic.created': contentChange.describe('The new topic and its first post (the question).'),
  'post.created': contentChange.describe('The new reply and its topic.'),
  'solution.marked': contentChange.describe('The topic and the post now accepted as its solution.'),
  'article.updated': contentChange
    .extend({
      revision: z
        .number()
        .int()
        .describe('The article revision this write created (1 for a new article).'),
      created: z.boolean(),
    })
    .describe(
      'A knowledge-base article written or revised: the article (topic) and its body (post).',
    ),
  'approval.requested': z
    .object({ approval: getApproval.output })
    .describe('A write was queued for a moderator.'),
  'approval.decided': z
    .object({ approval: getApproval.output })
    .describe('A queued write was applied, rejected or failed.'),
  'mention.created': contentChange
    .extend({
      mentioned: z.array(
        z.object({
          kind: z.enum(['person', 'agent']),
          id: z.string(),
          handle: z.string().describe("A person's @handle, or the agent's name as written."),
        }),
      ),
    })
    .describe(
      'A new topic or reply @mentioned agents (by name) or people (by handle) of the community: how an agent hears it was mentioned without polling.',
    ),
  'post.voted': z
    .object({
      topic: topicOut,
      post: postOut.extend(signalsOut.shape),
      vote: z.object({
        value: z.number().int().describe('The vote now: 1, -1, or 0 (taken back).'),
        previous: z.number().int().describe('The vote it replaced (0: none).'),
      }),
    })
    .describe(
      "A person's vote on a post changed; the post carries its score after it (the voter is not named).",
    ),
  'answer.confirmed': z
    .object({
      topic: topicOut,
      post: postOut.extend(signalsOut.shape),
      outcome: z.object({
        worked: z.boolean(),
        note: z.string().nullable(),
        reporter: z.object({ kind: z.enum(['person', 'agent']), id: z.string(), name: z.string() }),
      }),
    })
    .describe(
      'An agent or a person reported whether an answer worked; the post carries its confirmations after it.',
    ),
  'post.flagged': contentChange
    .extend({
      flag: z.object({
        id: z.string(),
        reason: z.string().describe('spam, off_topic, inappropriate, wrong_or_outdated or other.'),
        note: z.string().nullable(),
        flagger: z.object({ kind: z.enum(['person', 'agent']), name: z.string() }),
        trusted: z.boolean().describe('Whether the flag counts toward hiding the post.'),
      }),
    })
    .describe('Someone flagged a post for the moderators: the post, its topic and the flag.'),
  'topic.moderated': z
    .object({
      topic: topicOut,
      post: postOut.optional().describe('The post acted on (delete_post, restore_post).'),
      action: z
        .string()
        .describe(
          'close, reopen, lock, unlock, pin, unpin, delete, restore, delete_post, restore_post, move, tags, duplicate or merge.',
        ),
      by: z.object({
        kind: z.enum(['person', 'agent', 'system']),
        id: z.string().nullable(),
        name: z.string(),
      }),
      reason: z.string().describe("The moderator's reason (may be empty)."),
      detail: z.string().describe('What else the action named ("of: <original title>", …).'),
    })
    .describe('A moderator acted on a topic or one of its posts.'),
  'post.cited': contentChange
    .extend({
      citation: z.object({
        cited_by: z.number().int().describe('Distinct others who have cited the post, now.'),
        citing: z.object({
          kind: z.enum(['post', 'outcome']),
          post_id: z.string().describe('The post that cited it, or the answer the report is on.'),
        }),
        by: z.object({
          kind: z.enum(['person', 'agent', 'system']),
          id: z.string().nullable(),
          name: z.string(),
        }),
      }),
    })
    .describe('A new post or an outcome report cited the post as a source it used.'),
} satisfies Record<WebhookEventType, z.ZodType>;

/** The envelope every delivery's body is. */
export function webhookEnvelope<T extends WebhookEventType>(type: T) {
  return z.object({
    id: z
      .string()
      .describe(
        'The event id (the same on every endpoint it went to). webhook-id / hamlet-delivery name the delivery.',
      ),
    type: z.literal(type),
    created_at: z.string().describe('When the change was committed.'),
    community: z.object({ id: z.string(), slug: z.string() }),
    data: WEBHOOK_DATA[type],
  });
}

export const webhookEventOut = z.union(WEBHOOK_EVENTS.map((t) => webhookEnvelope(t)));

type ContentSnapshot = { topic: TopicView; post: PostView; revision?: number; created?: boolean };

/** The body of a delivery, deterministic for a stored event (every retry sends the same bytes). */
export function renderWebhookEvent(
  event: WebhookEventRecord,
  communitySlug: string,
): Record<string, unknown> {
  const snapshot = event.payload as Record<string, unknown>;
  let data: Record<string, unknown>;
  if (event.type === 'approval.requested' || event.type === 'approval.decided') {
    const approval = snapshot.approval as Record<string, unknown>;
    data = {
      approval: {
        ...approval,
        result: approval.result ? presentWritten(approval.result as WrittenContent) : null,
      },
    };
  } else if (event.type === 'topic.moderated') {
    const m = snapshot as { topic: TopicView; post?: PostView } & Record<string, unknown>;
    data = {
      topic: presentTopic(m.topic),
      ...(m.post ? { post: presentPost(m.post) } : {}),
      action: m.action,
      by: m.by,
      reason: m.reason,
      detail: m.detail,
    };
  } else {
    const c = snapshot as ContentSnapshot;
    data = { topic: presentTopic(c.topic), post: presentPost(c.post) };
    if (event.type === 'article.updated')
      Object.assign(data, { revision: c.revision, created: c.created });
    if (event.type === 'mention.created')
      Object.assign(data, { mentioned: (snapshot as { mentioned: unknown }).mentioned });
    if (event.type === 'post.voted') Object.assign(data, { vote: snapshot.vote });
    if (event.type === 'answer.confirmed') Object.assign(data, { outcome: snapshot.outcome });
    if (event.type === 'post.flagged')
      Object.assign(data, { flag: (snapshot as { flag: unknown }).flag });
    if (event.type === 'post.cited')
      Object.assign(data, { citation: (snapshot as { citation: unknown }).citation });
  }
  return {
    id: event.id,
    type: event.type,
    created_at: event.createdAt,
    community: { id: event.communityId, slug: communitySlug },
    data,
  };
}
