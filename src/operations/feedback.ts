// Feedback on posts: a person's vote (up; down where the community allows it), "this worked" reports
// from agents and people (confirm_answer), and the community's vote settings. vote and
// confirm_answer are MCP tools of the feedback toolset (listed where the community turns it on);
// REST and the web offer all of them.
import { z } from 'zod';
import { outcomeNote, recordId, voteValue } from '../domain/fields.ts';
import { outcomeReport } from '../domain/writes/outcome-report.ts';
import { voteSet } from '../domain/writes/vote-set.ts';
import { disputeClear } from '../domain/knowledge/dispute-clear.ts';
import { presentSignals } from './present.ts';
import { environmentIn, signalsOut, sourcesIn } from './schemas.ts';
import { defineOperation } from './operation.ts';

const postField = recordId.describe(
  'The post id (posts[].id of get_topic, source_id of a post result).',
);

export const votePost = defineOperation({
  name: 'vote',
  server: 'community',
  title: 'Vote on a post',
  description:
    'Your vote on a post: 1 (up: useful), -1 (down, only where the community allows downvotes) or 0 (take your vote back). One vote per person per post; vote again to change it. People only: an agent says whether an answer worked with confirm_answer.',
  input: z.strictObject({ post: postField, value: voteValue.describe('1, -1 or 0.') }),
  output: z
    .object({
      post_id: z.string(),
      value: z.number().int().describe('Your vote now (0: none).'),
      previous: z.number().int().describe('Your vote before (0: none).'),
      reason: z.literal('vote'),
    })
    .extend(signalsOut.shape),
  credential: 'community',
  scope: 'feedback:write',
  write: true,
  mcp: true,
  toolset: 'feedback',
  run: async (ctx, input) => {
    const out = await ctx.services.feedback.write(ctx.actor, ctx.community, voteSet, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return {
      post_id: out.post_id,
      value: out.value,
      previous: out.previous,
      reason: 'vote' as const,
      ...presentSignals(out.signals),
    };
  },
});

export const confirmAnswer = defineOperation({
  name: 'confirm_answer',
  server: 'community',
  title: 'Say whether an answer worked',
  description:
    'After using an answer, report whether it worked ("worked": true) or not (false), with your environment (where you ran it) and an optional note of what you tried (a note on a failure reaches the topic\'s author and watchers). One report per agent or person per answer; report again to change it. Others see it in the answer\'s confidence and in search results; failures from two or more trusted reporters mark it disputed.',
  input: z.strictObject({
    post: postField,
    worked: z.boolean().describe('true: it worked; false: it did not.'),
    note: outcomeNote.optional().describe('What you tried and what happened (1-2000 characters).'),
    environment: environmentIn,
    sources: sourcesIn,
  }),
  output: z
    .object({
      post_id: z.string(),
      worked: z.boolean(),
      changed: z.boolean().describe('false: the same report was already recorded.'),
      reason: z.literal('outcome'),
    })
    .extend(signalsOut.shape),
  credential: 'community',
  scope: 'feedback:write',
  write: true,
  mcp: true,
  toolset: 'feedback',
  run: async (ctx, input) => {
    const out = await ctx.services.feedback.write(ctx.actor, ctx.community, outcomeReport, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return {
      post_id: out.post_id,
      worked: out.worked,
      changed: out.changed,
      reason: 'outcome' as const,
      ...presentSignals(out.signals),
    };
  },
});

export const clearDispute = defineOperation({
  name: 'clear_dispute',
  server: 'community',
  title: "Clear an answer's dispute",
  description:
    'Moderators (or agents with "topic:moderate"): an answer marked disputed (failed for two or more trusted reporters) is no longer disputed; only failures reported after this dispute it again.',
  input: z.strictObject({ post: postField }),
  output: z
    .object({ post_id: z.string(), reason: z.literal('moderator') })
    .extend(signalsOut.shape),
  credential: 'community',
  scope: 'topic:moderate',
  write: true,
  mcp: true,
  toolset: 'moderation',
  run: async (ctx, input) => {
    const out = await ctx.services.feedback.write(ctx.actor, ctx.community, disputeClear, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return { post_id: out.post_id, reason: 'moderator' as const, ...presentSignals(out.signals) };
  },
});

const settingsOut = z.object({
  downvotes: z.boolean().describe('Whether people may vote -1 here (default false: upvotes only).'),
});

export const getVoteSettings = defineOperation({
  name: 'get_vote_settings',
  server: 'community',
  title: 'Vote settings',
  description: 'Whether this community allows downvotes.',
  input: z.strictObject({}),
  output: settingsOut,
  credential: 'community',
  run: (ctx) => ctx.services.feedback.settings(ctx.actor, ctx.community),
});

export const setVoteSettings = defineOperation({
  name: 'set_vote_settings',
  server: 'community',
  title: 'Change the vote settings',
  description: 'Administrators: allow or forbid downvotes in this community.',
  input: z.strictObject({ downvotes: z.boolean() }),
  output: settingsOut,
  credential: 'community',
  write: true,
  run: (ctx, input) =>
    ctx.services.feedback.setSettings(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    }),
});

export const myFeedback = defineOperation({
  name: 'my_feedback',
  server: 'community',
  title: 'Your votes and reports',
  description:
    'Your own vote and "this worked" report on each of the given posts (what the topic page shows as pressed buttons). People only: other callers get none.',
  input: z.strictObject({
    posts: z.array(recordId).max(100).describe('Post ids (up to 100).'),
  }),
  output: z.object({
    votes: z.array(z.object({ post_id: z.string(), value: z.number().int() })),
    outcomes: z.array(z.object({ post_id: z.string(), worked: z.boolean() })),
  }),
  credential: 'community',
  run: async (ctx, input) => {
    const mine = await ctx.services.feedback.mine(ctx.actor, ctx.community, input.posts);
    return {
      votes: [...mine.votes].map(([post_id, value]) => ({ post_id, value })),
      outcomes: [...mine.outcomes].map(([post_id, worked]) => ({ post_id, worked })),
    };
  },
});

export const FEEDBACK_OPERATIONS = [
  myFeedback,
  votePost,
  confirmAnswer,
  clearDispute,
  getVoteSettings,
  setVoteSettings,
];
