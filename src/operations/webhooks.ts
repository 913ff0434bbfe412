// A community's webhooks as operations (administrators only; REST and the web, not MCP tools):
// endpoints, secret rotation, the delivery log with every attempt, redelivery.
import { z } from 'zod';
import { cursor, pageLimit, recordId } from '../domain/fields.ts';
import { DELIVERY_STATUSES, webhookFields } from '../domain/webhooks/service.ts';
import { WEBHOOK_EVENTS } from '../domain/webhooks/outbox.ts';
import { defineOperation } from './operation.ts';
import { renderWebhookEvent, webhookEventOut } from './webhook-events.ts';

const endpointId = recordId.describe('The webhook endpoint id.');
const deliveryId = recordId.describe(
  'The delivery id (the webhook-id and hamlet-delivery headers of what was sent).',
);

export const endpointOut = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  active: z
    .boolean()
    .describe(
      'false: nothing is sent (disabled by an administrator, or after the receiver answered 410 Gone).',
    ),
  disabled_reason: z.string().nullable(),
  previous_secret_expires_at: z
    .string()
    .nullable()
    .describe('During a secret rotation: until when the previous secret also signs.'),
  created_at: z.string(),
  updated_at: z.string(),
});

const withSecret = z.object({
  endpoint: endpointOut,
  secret: z
    .string()
    .describe(
      'The signing secret ("whsec_…"), shown only now: store it where the receiver can read it.',
    ),
});

export const deliveryOut = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  event_id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  status: z
    .enum(DELIVERY_STATUSES)
    .describe(
      'pending (queued or retrying), delivered (a 2xx answer), failed (attempts exhausted, 410 Gone, or the target refused: not a public address).',
    ),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_status: z
    .number()
    .int()
    .nullable()
    .describe('HTTP status of the last attempt; null when it got no answer.'),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

const attemptOut = z.object({
  attempt: z.number().int(),
  started_at: z.string(),
  duration_ms: z.number().int(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable().describe("The start of the receiver's answer."),
});

const common = { server: 'community', credential: 'community' } as const;

export const listWebhooks = defineOperation({
  ...common,
  name: 'list_webhooks',
  title: 'List webhook endpoints',
  description: "This community's webhook endpoints (administrators).",
  input: z.strictObject({}),
  output: z.object({ webhooks: z.array(endpointOut) }),
  run: async (ctx) => ({ webhooks: await ctx.services.webhooks.list(ctx.actor, ctx.community) }),
});

export const createWebhook = defineOperation({
  ...common,
  name: 'create_webhook',
  title: 'Add a webhook endpoint',
  description:
    'Adds an endpoint that receives the chosen events, signed with a new secret (shown once). Administrators.',
  input: z.strictObject({
    url: webhookFields.url.describe('Where to POST events: a public http(s) URL.'),
    events: webhookFields.events.describe(`Events to send: any of ${WEBHOOK_EVENTS.join(', ')}.`),
    description: webhookFields.description
      .optional()
      .describe('What the endpoint is for, up to 500 characters.'),
  }),
  output: withSecret,
  write: true,
  run: (ctx, input) =>
    ctx.services.webhooks.create(ctx.actor, ctx.community, input, { ip: ctx.ip, audit: ctx.audit }),
});

export const getWebhook = defineOperation({
  ...common,
  name: 'get_webhook',
  title: 'Read a webhook endpoint',
  description: 'One webhook endpoint (never its secret).',
  input: z.strictObject({ webhook: endpointId }),
  output: endpointOut,
  run: (ctx, { webhook }) => ctx.services.webhooks.get(ctx.actor, ctx.community, webhook),
});

export const updateWebhook = defineOperation({
  ...common,
  name: 'update_webhook',
  title: 'Change a webhook endpoint',
  description:
    'Changes the URL, events, description, or turns the endpoint off and on (turning it on resumes its pending deliveries).',
  input: z.strictObject({
    webhook: endpointId,
    url: webhookFields.url.optional().describe('A public http(s) URL.'),
    events: webhookFields.events.optional().describe(`Any of ${WEBHOOK_EVENTS.join(', ')}.`),
    description: webhookFields.description.optional().describe('Up to 500 characters.'),
    active: webhookFields.active.optional().describe('false stops deliveries; true resumes them.'),
  }),
  output: endpointOut,
  write: true,
  run: (ctx, { webhook, ...patch }) =>
    ctx.services.webhooks.update(ctx.actor, ctx.community, webhook, patch, {
      ip: ctx.ip,
      audit: ctx.audit,
    }),
});

export const deleteWebhook = defineOperation({
  ...common,
  name: 'delete_webhook',
  title: 'Remove a webhook endpoint',
  description: 'Removes the endpoint with its delivery log.',
  input: z.strictObject({ webhook: endpointId }),
  output: z.object({ deleted: z.literal(true) }),
  write: true,
  run: async (ctx, { webhook }) => {
    await ctx.services.webhooks.remove(ctx.actor, ctx.community, webhook, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return { deleted: true as const };
  },
});

export const rotateWebhookSecret = defineOperation({
  ...common,
  name: 'rotate_webhook_secret',
  title: 'Rotate a webhook secret',
  description:
    'A new signing secret (shown once). During the overlap both the new and the previous secret sign every delivery, so receivers can switch without missing one.',
  input: z.strictObject({
    webhook: endpointId,
    overlap_hours: webhookFields.overlapHours
      .default(24)
      .describe('How long the previous secret keeps signing, 0-168 hours. Default 24.'),
  }),
  output: withSecret,
  write: true,
  run: (ctx, { webhook, overlap_hours }) =>
    ctx.services.webhooks.rotateSecret(
      ctx.actor,
      ctx.community,
      webhook,
      { overlap_hours },
      { ip: ctx.ip, audit: ctx.audit },
    ),
});

export const listWebhookDeliveries = defineOperation({
  ...common,
  name: 'list_webhook_deliveries',
  title: 'Webhook delivery log',
  description: "An endpoint's deliveries, newest first, with their status and attempts.",
  input: z.strictObject({
    webhook: endpointId,
    status: z.enum(DELIVERY_STATUSES).optional().describe('Only deliveries in this state.'),
    cursor: cursor.optional().describe('next_cursor of a previous call.'),
    limit: pageLimit(100, 20).describe('Deliveries per page, 1-100. Default 20.'),
  }),
  output: z.object({ deliveries: z.array(deliveryOut), next_cursor: z.string().nullable() }),
  run: async (ctx, { webhook, ...query }) => {
    const page = await ctx.services.webhooks.deliveries(ctx.actor, ctx.community, webhook, query);
    return { deliveries: page.deliveries, next_cursor: page.nextCursor };
  },
});

export const getWebhookDelivery = defineOperation({
  ...common,
  name: 'get_webhook_delivery',
  title: 'Read a webhook delivery',
  description:
    'One delivery: the body that was sent and every attempt (time, status, duration, the start of the answer).',
  input: z.strictObject({ delivery: deliveryId }),
  output: z.object({ delivery: deliveryOut, body: webhookEventOut, attempts: z.array(attemptOut) }),
  run: async (ctx, { delivery }) => {
    const found = await ctx.services.webhooks.delivery(ctx.actor, ctx.community, delivery);
    return {
      delivery: found.delivery,
      body: renderWebhookEvent(found.event, ctx.community.slug) as never,
      attempts: found.attempts,
    };
  },
});

export const redeliverWebhook = defineOperation({
  ...common,
  name: 'redeliver_webhook',
  title: 'Redeliver a webhook',
  description:
    'Sends a delivery again now, with the same id (receivers deduplicate on webhook-id), whatever its status.',
  input: z.strictObject({ delivery: deliveryId }),
  output: deliveryOut,
  write: true,
  run: (ctx, { delivery }) =>
    ctx.services.webhooks.redeliver(ctx.actor, ctx.community, delivery, {
      ip: ctx.ip,
      audit: ctx.audit,
    }),
});

export const WEBHOOK_OPERATIONS = [
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  getWebhookDelivery,
  redeliverWebhook,
];
