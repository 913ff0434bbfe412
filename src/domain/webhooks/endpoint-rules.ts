// What a community's webhook writes check (./webhook-*.ts, use cases of the one write runner): every
// input field with its one limit, the endpoint or delivery an id names (not_found saying where ids
// come from), and a target URL that is refused by its very name or literal address (resolved names
// are checked on delivery, src/webhooks/).
import { z } from 'zod';
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { WebhookEndpointRecord } from '../../store/webhooks.ts';
import { bareHost, isPrivateByName } from '../../outbound/addresses.ts';
import { requireCommunityAdmin } from '../authorization.ts';
import { DomainError } from '../errors.ts';
import { recordId } from '../fields.ts';
import { parse } from '../validate.ts';
import type { WriteContext } from '../writes/use-case.ts';
import { WEBHOOK_EVENTS } from './outbox.ts';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** Every webhook input field with its one limit (the operations describe them from here). */
export const webhookFields = {
  url: z
    .string()
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, 'must list at least one event')
    .max(WEBHOOK_EVENTS.length),
  description: z.string().trim().max(500, 'must be at most 500 characters'),
  active: z.boolean(),
  overlapHours: z
    .number()
    .int('must be a whole number')
    .min(0)
    .max(168, 'must be at most 168 hours (a week)'),
};

export async function findEndpoint(
  store: Store,
  community: Community,
  id: string,
): Promise<WebhookEndpointRecord> {
  const { id: ref } = parse(z.object({ id: recordId }), { id });
  const found = await store.community(community.id).webhooks.getEndpoint(ref);
  if (!found)
    throw new DomainError(
      'not_found',
      `No webhook endpoint "${ref}" in "${community.slug}". List the endpoints to see their ids.`,
    );
  return found;
}

export async function findDelivery(store: Store, community: Community, id: string) {
  const { id: ref } = parse(z.object({ id: recordId }), { id });
  const found = await store.community(community.id).webhooks.getDelivery(ref);
  if (!found)
    throw new DomainError(
      'not_found',
      `No webhook delivery "${ref}" in "${community.slug}". List an endpoint's deliveries to see their ids.`,
    );
  return found;
}

/** Refuses targets that are private by their very name or literal address (unless `allowPrivate`). */
export function checkTarget(url: string, allowPrivate: boolean): void {
  const parsed = new URL(url);
  if (parsed.username || parsed.password)
    throw new DomainError(
      'invalid_argument',
      'A webhook URL must not carry a user name or password; receivers authenticate deliveries by their signature.',
    );
  if (allowPrivate) return;
  const host = bareHost(parsed);
  if (isPrivateByName(host)) {
    throw new DomainError(
      'invalid_argument',
      `Webhooks cannot be delivered to ${host}: loopback, private and link-local addresses are refused. Use a public URL (the operator can allow private targets with HAMLET_WEBHOOK_ALLOW_PRIVATE=1 for development).`,
    );
  }
}

export function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** What a webhook write's audit entry keeps: the endpoint (or delivery) it touched. */
export const webhookAudit = (id: string) => ({ targets: { webhook_id: id } });

/** The guard of every webhook write: the community's administrators manage its webhooks. */
export const webhookAdmin = ({ store, actor, community }: WriteContext): Promise<void> =>
  requireCommunityAdmin(store, actor, community, 'manage webhooks');
