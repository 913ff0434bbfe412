// A person's notifications in this community and how they follow it: list them (newest first,
// with the unread count of the bell), mark them read, set a watch level on a topic or category,
// the e-mail preference, and their @handle. People only (signed in, or their user key); agents
// follow their topics through MCP resource subscriptions and webhooks.
import { z } from 'zod';
import { cursor, handlePrefix, pageLimit, recordId, topicRef } from '../domain/fields.ts';
import type { NotificationView } from '../domain/notifications/service.ts';
import {
  EMAIL_FREQUENCIES,
  NOTIFICATION_KINDS,
  WATCH_LEVELS,
} from '../domain/notifications/vocabulary.ts';
import { handleField, handleSet } from '../domain/writes/handle-set.ts';
import { notificationPreferencesSet } from '../domain/writes/notification-preferences-set.ts';
import { notificationsRead } from '../domain/writes/notifications-read.ts';
import { watchLevelSet } from '../domain/writes/watch-level-set.ts';
import { defineOperation } from './operation.ts';

const notificationOut = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  text: z.string().describe('One sentence saying what happened.'),
  title: z.string().describe('The topic (or the queued write) it is about.'),
  url: z.string().nullable().describe('Where it happened (the post on its topic page).'),
  topic_id: z.string().nullable(),
  post_id: z.string().nullable(),
  approval_id: z.string().nullable(),
  actor: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string() }),
  reason: z
    .string()
    .nullable()
    .describe("The moderator's reason, when a queued write was rejected."),
  excerpt: z
    .string()
    .nullable()
    .describe('The first words of the post it is about, as plain text (null: none).'),
  created_at: z.string(),
  read_at: z.string().nullable(),
});

function present(n: NotificationView): z.infer<typeof notificationOut> {
  return {
    id: n.id,
    kind: n.kind,
    text: n.text,
    title: n.title,
    url: n.url,
    topic_id: n.topicId,
    post_id: n.postId,
    approval_id: n.approvalId,
    actor: n.actor,
    reason: n.reason,
    excerpt: n.excerpt,
    created_at: n.createdAt,
    read_at: n.readAt,
  };
}

export const listNotifications = defineOperation({
  name: 'list_notifications',
  server: 'community',
  title: 'My notifications',
  description:
    'Your notifications in this community, newest first: replies to your topics, quotes and @mentions of you, your answers accepted, your queued writes decided (with the reason), new posts in what you watch.',
  input: z.strictObject({
    unread_only: z.boolean().optional().describe('Only those not marked read yet.'),
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    limit: pageLimit(50, 20).describe('Notifications per page, 1-50. Default 20.'),
  }),
  output: z.object({
    notifications: z.array(notificationOut),
    unread_count: z.number().int(),
    next_cursor: z.string().nullable(),
  }),
  credential: 'community',
  run: async (ctx, input) => {
    const out = await ctx.services.notifications.list(ctx.actor, ctx.community, input);
    return {
      notifications: out.notifications.map(present),
      unread_count: out.unreadCount,
      next_cursor: out.nextCursor,
    };
  },
});

const selfReason = z.literal('self').describe('Your own setting: it applies at once.');

export const markNotificationsRead = defineOperation({
  name: 'mark_notifications_read',
  server: 'community',
  title: 'Mark notifications read',
  description: 'Mark the given notifications read ("ids"), or all of yours here ("all": true).',
  input: z.strictObject({
    ids: z.array(recordId).max(100).optional().describe('Notification ids, at most 100.'),
    all: z.boolean().optional().describe('Mark every notification of yours here read.'),
  }),
  output: z.object({ marked: z.number().int(), reason: selfReason }),
  credential: 'community',
  write: true,
  run: (ctx, input) =>
    ctx.services.notifications.write(ctx.actor, ctx.community, notificationsRead, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    }),
});

export const setWatchLevel = defineOperation({
  name: 'set_watch_level',
  server: 'community',
  title: 'Watch, track or mute',
  description:
    'How closely you follow a topic or a category: watch (every new post; on a category, every new topic), track (also its accepted answer), normal (only what is addressed to you), mute (nothing), or default (clear: a topic follows its category).',
  input: z.strictObject({
    topic: topicRef.optional().describe('The topic id or slug (or give a category).'),
    category: z.string().optional().describe('The category slug or id (or give a topic).'),
    level: z.enum([...WATCH_LEVELS, 'default']),
  }),
  output: z.object({
    target: z.enum(['topic', 'category']),
    id: z.string(),
    level: z.string(),
    reason: selfReason,
  }),
  credential: 'community',
  write: true,
  run: (ctx, input) =>
    ctx.services.notifications.write(ctx.actor, ctx.community, watchLevelSet, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    }),
});

export const getWatchLevel = defineOperation({
  name: 'get_watch_level',
  server: 'community',
  title: 'How I follow a topic',
  description:
    'Your level on a topic: the one you set, else the one its category gives you, else normal.',
  input: z.strictObject({ topic: topicRef.describe('The topic id or slug.') }),
  output: z.object({
    level: z.enum(WATCH_LEVELS),
    set: z.boolean().describe('false: not set on the topic (it follows its category, or normal).'),
  }),
  credential: 'community',
  run: async (ctx, input) =>
    ctx.services.notifications.topicLevel(ctx.actor, ctx.community, input.topic),
});

const preferencesOut = z.object({
  email: z
    .enum(EMAIL_FREQUENCIES)
    .describe('How often notifications of this community are e-mailed to you.'),
  handle: z.string().nullable().describe('Your @handle (the same in every community).'),
  categories: z.array(z.object({ category_id: z.string(), level: z.enum(WATCH_LEVELS) })),
});

export const getNotificationPreferences = defineOperation({
  name: 'get_notification_preferences',
  server: 'community',
  title: 'My notification preferences',
  description: 'Your e-mail frequency here and the categories you set a level on.',
  input: z.strictObject({}),
  output: preferencesOut,
  credential: 'community',
  run: async (ctx) => {
    const p = await ctx.services.notifications.preferences(ctx.actor, ctx.community);
    return {
      email: p.email,
      handle: p.handle,
      categories: p.categories.map((c) => ({ category_id: c.categoryId, level: c.level })),
    };
  },
});

export const setNotificationPreferences = defineOperation({
  name: 'set_notification_preferences',
  server: 'community',
  title: 'Set my e-mail frequency',
  description:
    'E-mail about this community: immediately (one mail per notification), daily or weekly (a digest), or never.',
  input: z.strictObject({
    email_frequency: z.enum(EMAIL_FREQUENCIES).describe('immediately, daily, weekly or never.'),
  }),
  output: z.object({ email: z.string(), reason: selfReason }),
  credential: 'community',
  write: true,
  run: (ctx, input) =>
    ctx.services.notifications.write(
      ctx.actor,
      ctx.community,
      notificationPreferencesSet,
      { email: input.email_frequency },
      { ip: ctx.ip, audit: ctx.audit },
    ),
});

export const setMyHandle = defineOperation({
  name: 'set_my_handle',
  server: 'community',
  title: 'Change my @handle',
  description:
    'The name others @mention you by, unique on this Hamlet: 2-30 characters of a-z, 0-9, "_" and "-".',
  input: z.strictObject({ handle: handleField }),
  output: z.object({ handle: z.string(), reason: selfReason }),
  credential: 'community',
  write: true,
  run: (ctx, input) =>
    ctx.services.notifications.write(ctx.actor, ctx.community, handleSet, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    }),
});

export const suggestHandles = defineOperation({
  name: 'suggest_handles',
  server: 'community',
  title: 'Suggest @handles',
  description:
    'Whom an "@" followed by these letters may mention here: members whose handle or name starts with them, then agents of the community by name (up to 8). What the composer offers while typing.',
  input: z.strictObject({
    prefix: handlePrefix.describe('The letters typed after "@" (1-30 characters).'),
  }),
  output: z.object({
    suggestions: z.array(
      z.object({
        handle: z.string().describe('What to write after "@".'),
        name: z.string(),
        kind: z.enum(['person', 'agent']),
      }),
    ),
  }),
  credential: 'community',
  run: async (ctx, input) => ({
    suggestions: await ctx.services.notifications.suggestHandles(
      ctx.actor,
      ctx.community,
      input.prefix,
    ),
  }),
});

export const NOTIFICATION_OPERATIONS = [
  suggestHandles,
  listNotifications,
  markNotificationsRead,
  setWatchLevel,
  getWatchLevel,
  getNotificationPreferences,
  setNotificationPreferences,
  setMyHandle,
];
