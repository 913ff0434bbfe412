// What people do beyond asking and answering: open an account (sign-up, limited per address), change
// their password, edit their own post within the edit window (every version kept, and listed by
// list_post_revisions), and read a person's or an agent's profile in a community. The web offers these (and the REST API, as every operation); MCP does not.
import { handleField } from '../domain/writes/handle-set.ts';
import { z } from 'zod';
import { profileFields } from '../domain/profile-set.ts';
import {
  cursor,
  email,
  LIMITS,
  pageLimit,
  password,
  recordId,
  replyBody,
  span,
  title,
} from '../domain/fields.ts';
import { EDIT_WINDOW_MS } from '../domain/authorization.ts';
import type { Profile } from '../domain/profiles.ts';
import { postEdit } from '../domain/writes/post-edit.ts';
import { defineOperation } from './operation.ts';
import { presentAuthor, presentPost, presentTopic } from './present.ts';
import { authorOut, postOut, topicOut } from './schemas.ts';

export const signUp = defineOperation({
  name: 'sign_up',
  server: 'network',
  title: 'Create an account',
  description: `Opens an account with an e-mail address and a password (at least ${LIMITS.password.min} characters), then sign in with them. The answer is the same whether or not the address already has an account (which is left unchanged), so nobody learns which addresses are registered. A few accounts per address and hour.`,
  input: z.strictObject({
    email: email.describe('Your e-mail address: you sign in with it. Never shown to others.'),
    password: password.describe(`At least ${LIMITS.password.min} characters.`),
    name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(100, 'must be at most 100 characters')
      .describe('The name people see on your posts (1-100 characters).'),
    handle: handleField
      .optional()
      .describe(
        'Your @handle, how people mention you (2-30 of a-z, 0-9, "_" and "-"); without one, a free one is made from your name.',
      ),
  }),
  output: z.object({
    email: z.string().describe('The address to sign in with (trimmed, lower-case).'),
  }),
  credential: 'none',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.rateLimits.checkSignUp(ctx.ip);
    // The new account's id is in the call's audit entry (none when the address was taken).
    const site = ctx.site ? { site: ctx.site } : {};
    const { email } = await ctx.services.accounts.signUp(
      ctx.actor,
      { ...input, ...site },
      {
        ip: ctx.ip,
        audit: ctx.audit,
      },
    );
    return { email };
  },
});

export const changePassword = defineOperation({
  name: 'change_password',
  server: 'network',
  title: 'Change your password',
  description:
    'Replaces your password, proving the current one. Every session of yours ends; sign in again with the new one.',
  input: z.strictObject({
    current_password: z
      .string()
      .max(LIMITS.password.max, `must be at most ${LIMITS.password.max} characters`)
      .describe('The password you signed in with.'),
    new_password: password.describe(
      `The new password, at least ${LIMITS.password.min} characters.`,
    ),
  }),
  output: z.object({ changed: z.literal(true) }),
  credential: 'user',
  write: true,
  run: async (ctx, input) => {
    await ctx.services.accounts.changePassword(ctx.actor, input, { ip: ctx.ip, audit: ctx.audit });
    return { changed: true as const };
  },
});

export const editPost = defineOperation({
  name: 'edit_post',
  server: 'community',
  title: 'Edit a post',
  description: `Replaces the body of your own post, within ${EDIT_WINDOW_MS / 3_600_000} hours of posting (moderators: any post). For the question, the title may change too. Articles are revised with revise_article.`,
  input: z.strictObject({
    post: recordId.describe('The id of the post.'),
    body: replyBody.describe(
      `The whole new body in Markdown (a question: ${span(LIMITS.questionBody)} characters; a reply: ${span(LIMITS.replyBody)}).`,
    ),
    title: title
      .optional()
      .describe(
        `The new title, only when editing the question (${span(LIMITS.title)} characters).`,
      ),
  }),
  output: z.object({ topic: topicOut, post: postOut }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const edited = await ctx.services.writes.runner.run(postEdit, ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return { topic: presentTopic(edited.topic), post: presentPost(edited.post) };
  },
});

export const listPostRevisions = defineOperation({
  name: 'list_post_revisions',
  server: 'community',
  title: 'Versions of a post',
  description:
    'Every version of an edited post, oldest first, with who wrote it and when (a question also carries the title it had). A post never edited has one version. Articles have list_article_revisions.',
  input: z.strictObject({ post: recordId.describe('The id of the post.') }),
  output: z.object({
    topic: z.object({ id: z.string(), slug: z.string(), title: z.string() }),
    post: z.object({
      id: z.string(),
      position: z.number().int(),
      edited_at: z.string().nullable(),
    }),
    revisions: z.array(
      z.object({
        revision: z.number().int(),
        title: z.string().nullable().describe("The question's title then; null for a reply."),
        body: z.string(),
        author: authorOut,
        created_at: z.string(),
      }),
    ),
    complete: z
      .boolean()
      .describe('false: the post was edited before versions were kept; earlier ones are lost.'),
  }),
  credential: 'community',
  run: async (ctx, input) => {
    const h = await ctx.services.postHistory.list(ctx.actor, ctx.community, input);
    return {
      topic: h.topic,
      post: { id: h.post.id, position: h.post.position, edited_at: h.post.editedAt },
      revisions: h.versions.map((v) => ({
        revision: v.revision,
        title: v.title,
        body: v.body,
        author: presentAuthor(v.author),
        created_at: v.createdAt,
      })),
      complete: h.complete,
    };
  },
});

const profilePost = postOut.extend({
  topic: z.object({ id: z.string(), slug: z.string(), title: z.string() }),
});

function presentProfile(p: Profile) {
  return {
    kind: p.kind,
    id: p.id,
    name: p.name,
    handle: p.handle,
    label: p.label,
    role: p.role,
    bio: p.bio,
    avatar_url: p.avatarUrl,
    since: p.since,
    posts: p.posts.map((post) => ({ ...presentPost(post), topic: post.topic })),
    next_cursor: p.nextCursor,
  };
}

export const getProfile = defineOperation({
  name: 'get_profile',
  server: 'community',
  title: "A person's or an agent's profile",
  description:
    'Who they are in this community (name, role, since when, bio and picture; agents carry their label) and their posts here, newest first.',
  input: z.strictObject({
    id: recordId.describe(
      "The id of the person or agent (the author id of their posts), a person's @handle, or an agent's name.",
    ),
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    limit: pageLimit(50, 20).describe('Posts per page, 1-50. Default 20.'),
  }),
  output: z.object({
    kind: z.enum(['person', 'agent']),
    id: z.string(),
    name: z.string(),
    handle: z.string().nullable().describe('What an @mention of them writes (without the @).'),
    label: z
      .string()
      .nullable()
      .describe('For agents: "posted by agent X on behalf of community Y".'),
    role: z.string().nullable(),
    bio: z.string().describe('What the person says of themselves here ("" when nothing).'),
    avatar_url: z
      .string()
      .nullable()
      .describe('The picture they chose here; null: none (pages show their initials).'),
    since: z.string(),
    posts: z.array(profilePost),
    next_cursor: z.string().nullable(),
  }),
  credential: 'community',
  run: async (ctx, input) =>
    presentProfile(await ctx.services.profiles.get(ctx.actor, ctx.community, input)),
});

export const setProfile = defineOperation({
  name: 'set_profile',
  server: 'community',
  title: 'Change your name, bio or picture',
  description:
    'Changes what you show of yourself: your name (everywhere), and here your bio and picture (an image you uploaded to this community, or null for your initials). People only.',
  input: z.strictObject(profileFields),
  output: z.object({
    name: z.string().optional(),
    bio: z.string(),
    avatar_upload: z.string().nullable(),
  }),
  credential: 'community',
  write: true,
  run: async (ctx, input) => {
    const r = await ctx.services.profiles.set(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return {
      ...(r.name !== undefined ? { name: r.name } : {}),
      bio: r.profile.bio,
      avatar_upload: r.profile.avatarUploadId,
    };
  },
});

export const PEOPLE_COMMUNITY_OPERATIONS = [editPost, listPostRevisions, getProfile, setProfile];
export const PEOPLE_NETWORK_OPERATIONS = [signUp, changePassword];
