// A person's drafts (src/domain/drafts/): the unsent reply to a topic, or the new topic, they are
// writing, kept on the server. Offered on the web and REST; not MCP tools (agents post in one call).
import { z } from 'zod';
import { draftTitle, replyBody, topicRef } from '../domain/fields.ts';
import type { DraftView } from '../domain/drafts/service.ts';
import { draftDiscard, draftSave } from '../domain/writes/draft-save.ts';
import { defineOperation } from './operation.ts';

const selfReason = z.literal('self').describe('Your own draft: it applies at once.');

const draftOut = z.object({
  topic_id: z.string().nullable().describe('The topic it replies to; null: a new topic.'),
  subject: z.string().describe('The title of a new topic ("" for a reply).'),
  body: z.string(),
  updated_at: z.string(),
});

const present = (d: DraftView): z.output<typeof draftOut> => ({
  topic_id: d.topicId,
  subject: d.title,
  body: d.body,
  updated_at: d.updatedAt,
});

const place = topicRef
  .optional()
  .describe('The topic id or slug the draft replies to; leave out for a new topic.');

export const getDraft = defineOperation({
  name: 'get_draft',
  server: 'community',
  title: 'My draft',
  description: 'Your unsent reply to a topic (or your unsent new topic), if you saved one.',
  input: z.strictObject({ topic: place }),
  output: z.object({ draft: draftOut.nullable() }),
  credential: 'community',
  run: async (ctx, input) => {
    const d = await ctx.services.drafts.get(ctx.actor, ctx.community, input.topic);
    return { draft: d ? present(d) : null };
  },
});

export const saveDraft = defineOperation({
  name: 'save_draft',
  server: 'community',
  title: 'Save my draft',
  description:
    'Keeps your unsent reply to a topic (or new topic) on the server, replacing the one saved before.',
  input: z.strictObject({
    topic: place,
    subject: draftTitle.optional().describe('The title of a new topic.'),
    body: replyBody.describe('The text so far (Markdown).'),
  }),
  output: z.object({ draft: draftOut, reason: selfReason }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const out = await ctx.services.drafts.write(
      ctx.actor,
      ctx.community,
      draftSave,
      { topic: input.topic, title: input.subject ?? '', body: input.body },
      { ip: ctx.ip, audit: ctx.audit },
    );
    return { draft: present(out.draft), reason: out.reason };
  },
});

export const discardDraft = defineOperation({
  name: 'discard_draft',
  server: 'community',
  title: 'Discard my draft',
  description: 'Deletes your saved draft of a reply to a topic (or of a new topic).',
  input: z.strictObject({ topic: place }),
  output: z.object({ discarded: z.boolean(), reason: selfReason }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const out = await ctx.services.drafts.write(ctx.actor, ctx.community, draftDiscard, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return { discarded: out.discarded, reason: out.reason };
  },
});

export const DRAFT_OPERATIONS = [getDraft, saveDraft, discardDraft];
