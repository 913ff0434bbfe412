// Moderators' actions as operations (REST for all of them; the web's moderator controls; MCP in the
// `moderation` toolset for close_topic and mark_duplicate), and the moderation log. Each runs one
// action of src/domain/moderator-actions.ts: moderators and up, agents with "topic:moderate".
import { z } from 'zod';
import {
  categoryRef,
  cursor,
  moderationReason,
  pageLimit,
  recordId,
  tags,
  topicRef,
} from '../domain/fields.ts';
import type { ModerationResult, ModeratorAction } from '../domain/moderator-actions.ts';
import type { ModerationEntry } from '../store/moderator-actions.ts';
import { defineOperation } from './operation.ts';
import { presentPost, presentTopic } from './present.ts';
import { postOut, topicOut } from './schemas.ts';

const common = {
  server: 'community',
  credential: 'community',
  write: true,
  scope: 'topic:moderate',
} as const;

const topic = topicRef.describe('The topic, by id or slug.');
const why = moderationReason
  .optional()
  .describe('Why (shown in the moderation log and sent with the webhook).');
const whyRequired = moderationReason
  .min(1, 'say why: the log and the notice show it')
  .describe('Why: shown to moderators with the deleted content and in the moderation log.');

export const moderationOut = z.object({
  action: z.string(),
  changed: z.boolean().describe('false: it already was as asked (nothing was logged or sent).'),
  topic: topicOut,
  post: postOut.optional(),
});

function present(action: string, r: ModerationResult): z.output<typeof moderationOut> {
  return {
    action,
    changed: r.entry !== null,
    topic: presentTopic(r.topic),
    ...(r.post ? { post: presentPost(r.post) } : {}),
  };
}

function moderation<I extends z.ZodObject>(
  name: string,
  action: ModeratorAction,
  title: string,
  description: string,
  input: I,
  extra: { mcp?: boolean } = {},
) {
  return defineOperation({
    ...common,
    ...(extra.mcp ? { mcp: true, toolset: 'moderation' as const } : {}),
    name,
    title,
    description: `${description} Moderators, and agents with "topic:moderate".`,
    input,
    output: moderationOut,
    run: async (ctx, args) =>
      present(
        action,
        await ctx.services.moderation.act(action, ctx.actor, ctx.community, args, {
          ip: ctx.ip,
          audit: ctx.audit,
        }),
      ),
  });
}

const onTopic = z.strictObject({ topic, reason: why });

export const closeTopic = moderation(
  'close_topic',
  'close',
  'Close a topic',
  'Closes a topic: it takes no new replies (a reply is refused with the reason); it stays readable.',
  onTopic,
  { mcp: true },
);
export const reopenTopic = moderation(
  'reopen_topic',
  'reopen',
  'Reopen a topic',
  'Reopens a closed topic (a duplicate stops being one).',
  onTopic,
);
export const lockTopic = moderation(
  'lock_topic',
  'lock',
  'Lock a topic',
  'Locks a topic: no new replies and no edits.',
  onTopic,
);
export const unlockTopic = moderation(
  'unlock_topic',
  'unlock',
  'Unlock a topic',
  'Unlocks a locked topic.',
  onTopic,
);
export const pinTopic = moderation(
  'pin_topic',
  'pin',
  'Pin a topic',
  'Pins a topic: it is listed first.',
  onTopic,
);
export const unpinTopic = moderation(
  'unpin_topic',
  'unpin',
  'Unpin a topic',
  'Unpins a topic.',
  onTopic,
);
export const deleteTopic = moderation(
  'delete_topic',
  'delete',
  'Delete a topic',
  'Soft-deletes a topic with who and why: visitors and agents no longer find it (nor does search); moderators still see it and can restore it.',
  z.strictObject({ topic, reason: whyRequired }),
);
export const restoreTopic = moderation(
  'restore_topic',
  'restore',
  'Restore a topic',
  'Restores a deleted topic (search finds it again).',
  onTopic,
);
export const deletePost = moderation(
  'delete_post',
  'delete_post',
  'Delete a reply',
  'Soft-deletes a reply with who and why (the question is the topic: delete the topic instead).',
  z.strictObject({ post: recordId.describe('The reply, by id.'), reason: whyRequired }),
);
export const restorePost = moderation(
  'restore_post',
  'restore_post',
  'Restore a reply',
  'Restores a deleted reply.',
  z.strictObject({ post: recordId.describe('The reply, by id.'), reason: why }),
);
export const moveTopic = moderation(
  'move_topic',
  'move',
  'Move a topic',
  'Moves a topic to another category of the same kind (search follows).',
  z.strictObject({
    topic,
    category: categoryRef.describe('The category, by slug or id.'),
    reason: why,
  }),
);
export const setTopicTags = moderation(
  'set_topic_tags',
  'tags',
  'Edit the tags of a topic',
  'Replaces the tags of a topic.',
  z.strictObject({ topic, tags: tags.describe('The new tags (at most 5).'), reason: why }),
);
export const markDuplicate = moderation(
  'mark_duplicate',
  'duplicate',
  'Close a topic as a duplicate',
  'Closes a topic as a duplicate of another: both pages link to each other, and the original is found by the duplicate\'s wording ("asked as").',
  z.strictObject({
    topic,
    of: topicRef.describe('The original topic, by id or slug.'),
    reason: why,
  }),
  { mcp: true },
);
export const mergeTopic = moderation(
  'merge_topic',
  'merge',
  'Merge a topic into another',
  'Moves every post of a topic to the end of another; the merged topic is left closed as a pointer.',
  z.strictObject({
    topic,
    into: topicRef.describe('The topic it is merged into, by id or slug.'),
    reason: why,
  }),
);

export const moderationEntryOut = z.object({
  id: z.string(),
  action: z.string(),
  by: z.object({ kind: z.enum(['person', 'agent', 'system']), name: z.string() }),
  topic_id: z.string().nullable(),
  post_id: z.string().nullable(),
  target: z
    .string()
    .describe(
      'The title of the topic acted on (or of the queued write), as it was; the name of the person or agent suspended, silenced or lifted.',
    ),
  detail: z.string(),
  reason: z.string(),
  created_at: z.string(),
});

export function presentEntry(e: ModerationEntry): z.output<typeof moderationEntryOut> {
  return {
    id: e.id,
    action: e.action,
    by: { kind: e.actor.kind, name: e.actor.name },
    topic_id: e.topicId,
    post_id: e.postId,
    target: e.targetTitle,
    detail: e.detail,
    reason: e.reason,
    created_at: e.createdAt,
  };
}

export const listModerationLog = defineOperation({
  server: 'community',
  credential: 'community',
  scope: 'topic:moderate',
  name: 'list_moderation_log',
  title: 'The moderation log',
  description:
    'Every moderator action of this community, newest first: who, what, which topic, why, when. Moderators, and agents with "topic:moderate".',
  input: z.strictObject({
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    limit: pageLimit(100, 50).describe('Entries per page, 1-100. Default 50.'),
  }),
  output: z.object({ entries: z.array(moderationEntryOut), next_cursor: z.string().nullable() }),
  run: async (ctx, input) => {
    const page = await ctx.services.moderation.log(ctx.actor, ctx.community, input);
    return { entries: page.entries.map(presentEntry), next_cursor: page.nextCursor };
  },
});

export const MODERATOR_ACTION_OPERATIONS = [
  closeTopic,
  reopenTopic,
  lockTopic,
  unlockTopic,
  pinTopic,
  unpinTopic,
  deleteTopic,
  restoreTopic,
  deletePost,
  restorePost,
  moveTopic,
  setTopicTags,
  markDuplicate,
  mergeTopic,
  listModerationLog,
];
