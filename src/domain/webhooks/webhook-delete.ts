// webhook.delete: an administrator removes an endpoint (its deliveries go with it).
import { z } from 'zod';
import type { WebhookEndpointRecord } from '../../store/webhooks.ts';
import type { UseCase } from '../writes/use-case.ts';
import { findEndpoint, webhookAdmin, webhookAudit } from './endpoint-rules.ts';

const contract = z.object({ id: z.string() });

export const webhookDelete: UseCase<z.output<typeof contract>, WebhookEndpointRecord, string> = {
  name: 'webhook.delete',
  contract,
  guard: webhookAdmin,
  load: ({ store, community }, { id }) => findEndpoint(store, community, id),
  policy: async () => ({ mode: 'apply', reason: 'administrator' }),
  apply: async ({ tx, community }, _input, endpoint) => {
    await tx.community(community.id).webhooks.deleteEndpoint(endpoint.id);
    return endpoint.id;
  },
  audit: (id) => webhookAudit(id),
};
