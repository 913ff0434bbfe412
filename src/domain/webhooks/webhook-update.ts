// webhook.update: an administrator changes an endpoint's URL, events, description or whether it is
// active; re-activating clears the reason it was disabled, deactivating says an administrator did.
import { z } from 'zod';
import type { WebhookEndpointRecord } from '../../store/webhooks.ts';
import type { UseCase } from '../writes/use-case.ts';
import {
  checkTarget,
  findEndpoint,
  unique,
  webhookAdmin,
  webhookAudit,
  webhookFields,
} from './endpoint-rules.ts';

const contract = z.object({
  id: z.string(),
  url: webhookFields.url.optional(),
  events: webhookFields.events.optional(),
  description: webhookFields.description.optional(),
  active: webhookFields.active.optional(),
});

export function webhookUpdate(
  allowPrivate: boolean,
): UseCase<z.output<typeof contract>, WebhookEndpointRecord, WebhookEndpointRecord> {
  return {
    name: 'webhook.update',
    contract,
    guard: webhookAdmin,
    load: async ({ store, community }, { id, url }) => {
      const endpoint = await findEndpoint(store, community, id);
      if (url) checkTarget(url, allowPrivate);
      return endpoint;
    },
    policy: async () => ({ mode: 'apply', reason: 'administrator' }),
    apply: async ({ tx, community }, { id: _id, ...patch }, endpoint) =>
      (await tx.community(community.id).webhooks.updateEndpoint(endpoint.id, {
        ...patch,
        events: patch.events && unique(patch.events),
        ...(patch.active === true
          ? { disabledReason: null }
          : patch.active === false
            ? { disabledReason: 'Disabled by an administrator.' }
            : {}),
      }))!,
    audit: (updated) => webhookAudit(updated.id),
  };
}
