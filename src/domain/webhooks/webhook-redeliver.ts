// webhook.redeliver: an administrator sends a delivery again, now, with the same id (receivers
// deduplicate on it).
import { z } from 'zod';
import type { WebhookDeliveryRecord } from '../../store/webhooks.ts';
import type { UseCase } from '../writes/use-case.ts';
import { findDelivery, webhookAdmin, webhookAudit } from './endpoint-rules.ts';

const contract = z.object({ id: z.string() });

export const webhookRedeliver: UseCase<
  z.output<typeof contract>,
  { id: string },
  WebhookDeliveryRecord
> = {
  name: 'webhook.redeliver',
  contract,
  guard: webhookAdmin,
  load: ({ store, community }, { id }) => findDelivery(store, community, id),
  policy: async () => ({ mode: 'apply', reason: 'administrator' }),
  apply: async ({ tx, community }, _input, found) => {
    const hooks = tx.community(community.id).webhooks;
    await hooks.redeliver(found.id);
    return (await hooks.getDelivery(found.id))!;
  },
  audit: (delivery) => webhookAudit(delivery.id),
};
